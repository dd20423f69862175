/**
 * A whole site for browser tests, as production runs it: the embedded content API on
 * a fresh SQLite file loaded with the demo site, and the app with the built renderer,
 * listening on 127.0.0.1.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { type AppDeps, createApp, type PortalApp } from "../../../server/app.ts";
import { startContentApi } from "../../../server/content/api.ts";
import { openContentDb } from "../../../server/content/db.ts";
import { loadSiteIfEmpty } from "../../../server/content/site-io.ts";
import { getClassifyMenus } from "../../../server/content/store.ts";
import { DEMO_SITE_FILE } from "../../../server/project-root.ts";
import { createProdRenderer } from "../../../server/render/prod-renderer.ts";
import { testConfig } from "../../support/config.ts";
import { launchChromium } from "./chromium.ts";

export interface TestSite {
  origin: string;
  app: PortalApp;
  /** The embedded content API the site reads (its own, on a port of its own). */
  contentApiUrl: string;
  close(): Promise<void>;
}

/** `deps`: what the app is given beside the config (e.g. fewer resize slots, as on a smaller machine). */
export async function startDemoSite(env: Record<string, string> = {}, deps: Pick<AppDeps, "imageResizeSlots"> = {}): Promise<TestSite> {
  const dir = await mkdtemp(path.join(tmpdir(), "portal-browser-"));
  const content = await openContentDb(`sqlite:${path.join(dir, "portal.db")}`);
  await loadSiteIfEmpty(content, DEMO_SITE_FILE);
  const api = await startContentApi(content);
  const config = testConfig(env);
  const app = createApp(
    { ...config, classify: config.classify ?? (await getClassifyMenus(content)) },
    // With API_BASE_URL the site reads that upstream instead of its own content API.
    { ...deps, upstreamUrl: config.apiBaseUrl ?? api.url, database: content, renderer: await createProdRenderer(inject("testDist")) },
  );
  const server: Server = await new Promise((resolve) => {
    const listening = createServer(app).listen(0, "127.0.0.1", () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    app,
    contentApiUrl: api.url,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      app.portal.close();
      await api.close();
      await content.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
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
