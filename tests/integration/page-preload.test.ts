/**
 * A page's head has the browser fetch its component's chunk (and the English strings, in
 * English) beside the entry, as the build's manifest names them (docs/behaviour.md#route-modules).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../server/project-root.ts";
import { pageHref } from "../../shared/routes.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";

let site: BuiltSite;
let manifest: Record<string, { file: string }>;

beforeAll(async () => {
  site = await startBuiltSite();
  manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "dist/client/.vite/manifest.json"), "utf8"));
});
afterAll(() => site?.close());

const preloadsOf = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
const chunkOf = (source: string) => `/portal/${manifest[source]?.file}`;

describe("the page's head", () => {
  it.each([
    ["/portal/index.html", "client/pages/home.tsx"],
    [pageHref("noticeList"), "client/pages/message-list.tsx"],
    [pageHref("jobSchoolDetail", 35), "client/pages/job-detail.tsx"],
    [pageHref("serviceDetail", 1), "client/pages/offering-detail.tsx"],
  ])("of %s preloads the chunk of %s", async (url, source) => {
    const res = await request(site.origin).get(url);
    expect(res.status).toBe(200);
    expect(preloadsOf(res.text)).toContain(chunkOf(source));
    expect(preloadsOf(res.text)).not.toContain(chunkOf("client/i18n/messages-en.ts"));
  });

  it("in English preloads the English strings too", async () => {
    const res = await request(site.origin).get(pageHref("founders", undefined, "en"));
    expect(preloadsOf(res.text)).toEqual(
      expect.arrayContaining([chunkOf("client/pages/founders.tsx"), chunkOf("client/i18n/messages-en.ts")]),
    );
  });
});
