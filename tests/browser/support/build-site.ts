/**
 * Builds the client and server bundles into a folder, so browser tests exercise exactly
 * what production serves (hashed assets, the SSR bundle).
 */
import path from "node:path";
import { build } from "vite";

const ROOT = path.resolve(import.meta.dirname, "../../..");

export async function buildSite(distDir: string): Promise<void> {
  const logLevel = "warn" as const;
  await build({ root: ROOT, logLevel, build: { outDir: path.join(distDir, "client"), emptyOutDir: true, manifest: true } });
  await build({ root: ROOT, logLevel, build: { ssr: "client/entry-server.tsx", outDir: path.join(distDir, "ssr"), emptyOutDir: true } });
}
