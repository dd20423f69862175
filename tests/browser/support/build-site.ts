/**
 * Builds the client and server bundles once per test run into .tmp/dist, so browser
 * tests exercise exactly what production serves (hashed assets, the SSR bundle).
 */

import path from "node:path";
import { build } from "vite";

export const TEST_DIST = path.resolve(import.meta.dirname, "../../../.tmp/dist");
const ROOT = path.resolve(import.meta.dirname, "../../..");

export async function buildSite(): Promise<void> {
  const logLevel = "warn" as const;
  await build({ root: ROOT, logLevel, build: { outDir: path.join(TEST_DIST, "client"), emptyOutDir: true, manifest: true } });
  await build({ root: ROOT, logLevel, build: { ssr: "client/entry-server.tsx", outDir: path.join(TEST_DIST, "ssr"), emptyOutDir: true } });
}
