/**
 * Per-test setup of the /api/portal cache suites: a stand-in upstream with site settings,
 * partners and an empty news list, and an app on it whose clock the test moves. `upstream`
 * and `app` are live bindings, new for every test.
 */
import { afterEach, beforeEach } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { testConfig } from "./config.ts";
import { settled } from "./settled.ts";
import { type StandInUpstream, startStandInUpstream } from "./stand-in-upstream.ts";

export const SYSCFG = "/api/portal/sys/syscfg";
export const PARTNERS = "/api/portal/crm/partner/list";

export let upstream: StandInUpstream;
export let app: PortalApp;
export const clock = { now: 1_000_000 };

/** The app on the current upstream, with a 1 s TTL and a 5 s stale window unless `env` says otherwise. */
export function build(env: Record<string, string> = {}): PortalApp {
  app = createApp(testConfig({ API_BASE_URL: upstream.url, CACHE_TTL_MS: "1000", CACHE_STALE_MS: "5000", ...env }), {
    now: () => clock.now,
  });
  return app;
}

export const settle = () => settled(app);

/** Starts the upstream before each test of the calling file, and closes it and the app after it. */
export function apiUpstreamForEachTest(): void {
  beforeEach(async () => {
    clock.now = 1_000_000;
    upstream = await startStandInUpstream({
      [SYSCFG]: { themePortal: "1,1", metaKeywords: "demo" },
      [PARTNERS]: [{ logo: "/a.svg", url: "https://a.example" }],
      "/api/portal/message/news/list": { pageDataList: [], totalCount: 0, totalPageCount: 0 },
    });
  });

  afterEach(async () => {
    app?.portal.close();
    await upstream.close();
  });
}
