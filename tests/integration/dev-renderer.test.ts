/**
 * Development mode: Vite in middleware mode renders the same pages from source and
 * serves the client modules, so `npm run dev` shows the site as production does.
 */
import request from "supertest";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { createDevRenderer } from "../../server/render/dev-renderer.ts";
import type { PageRenderer } from "../../server/render/page-renderer.ts";
import { testConfig } from "../support/config.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

let upstream: StandInUpstream;
let renderer: PageRenderer;
let app: PortalApp;

beforeAll(async () => {
  upstream = await startStandInUpstream({
    "/api/portal/sys/syscfg": { themePortal: "1,1", metaKeywords: "k" },
    "/api/portal/sys/sysauthor": { name: "开发公司", fname: "开发科技有限公司" },
    "/api/portal/sys/menu/list": [],
    "/api/portal/plan/company": { brief: "<p>公司介绍正文</p>" },
  });
  renderer = await createDevRenderer();
  app = createApp(testConfig({ API_BASE_URL: upstream.url, NODE_ENV: "development" }), { renderer });
});

afterAll(async () => {
  app.portal.close();
  await renderer.close?.();
  await upstream.close();
});

it("renders a page from source with Vite's client and the page's data", async () => {
  const res = await request(app).get("/portal/about/index.html");
  expect(res.status).toBe(200);
  expect(res.text).toContain("<title>开发公司 - ");
  expect(res.text).toContain("公司介绍正文");
  expect(res.text).toContain('src="/portal/@vite/client"');
});

it("serves the client modules through Vite", async () => {
  const res = await request(app).get("/portal/client/entry-client.tsx");
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toMatch(/javascript/);
});
