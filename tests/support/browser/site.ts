/**
 * A whole site for browser tests, as production runs it: the built server started as
 * `npm start` starts it, with the embedded content API on a fresh SQLite file loaded with
 * the demo site (or the upstream `env` names), listening on 127.0.0.1.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { startBuiltSite } from "../built-site.ts";
import { launchChromium } from "./chromium.ts";

export interface TestSite {
  origin: string;
  close(): Promise<void>;
}

export async function startDemoSite(env: Record<string, string> = {}): Promise<TestSite> {
  const site = await startBuiltSite(env);
  return { origin: site.origin, close: site.close };
}

/**
 * The demo site and one Chromium for a whole test file: started before its tests,
 * closed after them. Read `site` and `browser` inside tests, not at collection time.
 */
export function useDemoSiteInBrowser(): { site: TestSite; browser: Browser } {
  const shared = {} as { site: TestSite; browser: Browser };
  beforeAll(async () => {
    shared.site = await startDemoSite();
    shared.browser = await launchChromium();
  });
  afterAll(async () => {
    await shared.browser?.close();
    await shared.site?.close();
  });
  return shared;
}
