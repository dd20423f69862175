import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { upstreamCallOf } from "../../server/operations/app-metrics.ts";
import { routeKindOf } from "../../server/operations/route-kind.ts";
import { testConfig } from "../support/config.ts";

describe("routeKindOf", () => {
  it.each([
    ["/portal/index.html", 200, "page"],
    ["/portal/message/news/12", 404, "page"],
    ["/api/portal/sys/syscfg", 200, "api"],
    ["/portal/_img?url=%2Fportal%2Fmedia%2Fa.png&w=640&q=75", 200, "image"],
    ["/portal/_imgx", 200, "page"],
    ["/portal/assets/entry-abc.js", 200, "static"],
    ["/portal/media/logo.svg", 304, "static"],
    ["/portal/wechat/jweixin-1.6.0.js", 200, "static"],
    ["/portal/", 301, "redirect"],
    ["/wp-login.php", 302, "redirect"],
    ["/portal/healthz", 200, "other"],
    ["/portal/message/news/rss.xml", 200, "other"],
    ["/robots.txt", 200, "other"],
  ])("%s answered %i is %s", (url, status, kind) => {
    expect(routeKindOf(url, status)).toBe(kind);
  });
});

describe("upstreamCallOf", () => {
  it("names a request by the call table's id, whatever its query or item id", () => {
    expect(upstreamCallOf("GET", "/api/portal/sys/syscfg?imgScope=0")).toBe("syscfg");
    expect(upstreamCallOf("GET", "/api/portal/message/news/12")).toBe(upstreamCallOf("GET", "/api/portal/message/news/99"));
    expect(upstreamCallOf("PUT", "/api/portal/reader/reader")).not.toBe("other");
    expect(upstreamCallOf("GET", "/api/portal/no/such/call")).toBe("other");
  });
});

describe("the Grafana dashboard", () => {
  it("queries only metrics the server exports", async () => {
    const app = createApp(testConfig({ API_BASE_URL: "http://127.0.0.1:9" }));
    const exported = await app.portal.metrics.registry.metrics();
    app.portal.close();
    const dashboard = readFileSync(path.resolve(import.meta.dirname, "../../docs/grafana-dashboard.json"), "utf8");
    const queried = new Set([...dashboard.matchAll(/\b(portal_[a-z_]+?)(_bucket|_count)?\b/g)].map((m) => m[1] as string));
    expect(queried.size).toBeGreaterThan(8);
    for (const name of queried) expect(exported, name).toContain(`# TYPE ${name} `);
  });
});
