import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildSite } from "./support/build-site.ts";

declare module "vitest" {
  export interface ProvidedContext {
    testDist: string;
  }
}

/** Vitest global setup: the browser suites run against the built site, built once per run into a folder of its own. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), "portal-dist-"));
  await buildSite(dir);
  project.provide("testDist", dir);
  return () => rm(dir, { recursive: true, force: true });
}
