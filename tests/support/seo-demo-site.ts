/**
 * The demo site as production serves it, with a public origin, for the search engine suites:
 * the built site on the embedded content API, started once for the calling suite, and the
 * demo site file it serves. `site` and `demo` are live bindings.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll } from "vitest";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";
import { type BuiltSite, startBuiltSite } from "./built-site.ts";

export interface DemoSite {
  news: { id: number; dateTime: string }[];
  notices: { id: number }[];
  products: { id: number }[];
  services: { id: number }[];
  jobs: { id: number; type: number; name: string; jobAddrId: number }[];
  jobAddrs: { id: number; name: string }[];
  translations?: { en: { news?: { id: number }[] } };
}

export const ORIGIN = "https://www.example.com";

export let site: BuiltSite;
export let demo: DemoSite;

/** Starts the built demo site before the calling suite's tests, and closes it after them. */
export function demoSiteForTheSuite(): void {
  beforeAll(async () => {
    demo = JSON.parse(await readFile(DEMO_SITE_FILE, "utf8"));
    site = await startBuiltSite({ PUBLIC_ORIGIN: ORIGIN, TRUST_PROXY: "loopback" });
  });

  afterAll(async () => {
    await site?.close();
  });
}
