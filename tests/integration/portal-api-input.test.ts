import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { testConfig } from "../support/config.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

let upstream: StandInUpstream;
let app: PortalApp;

beforeEach(async () => {
  upstream = await startStandInUpstream({
    "/api/portal/message/news/5": { id: 5, title: "t" },
    "/api/portal/job/job/list": { pageDataList: [], totalCount: 0, totalPageCount: 0 },
    "/api/portal/product/category/list": [{ id: 1, name: "A", type: 1 }],
  });
  app = createApp(
    testConfig({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: '[{"menuId":2,"api":"/api/portal/product/category/list","path":"/product"}]',
    }),
  );
});

afterEach(async () => {
  app.portal.close();
  await upstream.close();
});

describe("/api/portal allowlist and methods", () => {
  it.each([
    "/api/portal/admin/users",
    "/api/portal/sys/syscfg/extra",
    "/api/portal/message/news/5/edit",
    "/api/portal/%2e%2e/secret",
    "/api/portal",
    "/api/portal/",
  ])("answers %s with a JSON 404 that never reaches the upstream", async (url) => {
    const res = await request(app).get(url);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, data: null });
    expect(upstream.count()).toBe(0);
  });

  it("answers a configured classify path through the cache", async () => {
    const res = await request(app).get("/api/portal/product/category/list?x=1");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ id: 1, name: "A", type: 1 }]);
    expect(upstream.requests[0]?.url).toBe("/api/portal/product/category/list");
  });

  it.each([
    ["POST", "/api/portal/sys/syscfg", "GET, HEAD"],
    ["DELETE", "/api/portal/message/news/5", "GET, HEAD"],
    ["PUT", "/api/portal/sys/menu/list", "GET, HEAD"],
    ["POST", "/api/portal/reader/reader", "GET, HEAD, PUT"],
    ["PATCH", "/api/portal/reader/reader", "GET, HEAD, PUT"],
  ])("answers %s %s with 405 and Allow", async (method, url, allow) => {
    const res = await request(app)[method.toLowerCase() as "post"](url).send({});
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.body.code).toBe(405);
    expect(upstream.count()).toBe(0);
  });

  it("answers HEAD like GET without a body", async () => {
    const res = await request(app).head("/api/portal/message/news/5");
    expect(res.status).toBe(200);
    expect(res.headers["x-cache"]).toBe("MISS");
  });
});

describe("/api/portal bad input", () => {
  it.each([
    ["/api/portal/message/news/0", "id must be an integer"],
    ["/api/portal/message/news/-1", "id must be an integer"],
    ["/api/portal/message/news/01", "id must be an integer"],
    ["/api/portal/message/news/1e3", "id must be an integer"],
    ["/api/portal/message/news/abc", "id must be an integer"],
    ["/api/portal/message/news/9007199254740992", "id must be an integer"],
    ["/api/portal/message/news/list%2F..%2Fx", "id must be an integer"],
    ["/api/portal/message/news/list?pageIndex=-1", "pageIndex must be"],
    ["/api/portal/message/news/list?pageIndex=100001", "pageIndex must be"],
    ["/api/portal/message/news/list?pageIndex=1.5", "pageIndex must be"],
    ["/api/portal/message/news/list?pageMaxCount=0", "pageMaxCount must be"],
    ["/api/portal/message/news/list?pageMaxCount=101", "pageMaxCount must be"],
    ["/api/portal/message/news/list?pageMaxCount=20&pageMaxCount=50", "pageMaxCount is given more than once"],
    ["/api/portal/job/job/list?jobTypeIds=1,,x", "jobTypeIds must be ids"],
    ["/api/portal/job/job/list?jobAddrIds=0", "jobAddrIds must be ids"],
    ["/api/portal/job/job/list?type=3", "type must be one of 1, 2"],
    ["/api/portal/sys/syscfg?imgScope=10", "imgScope must be"],
    ["/api/portal/reader/reader?type=2", "pid is required"],
    ["/api/portal/reader/reader?type=5&pid=1", "type must be one of 1, 2"],
  ])("answers %s with 400 (%s) and no upstream request", async (url, message) => {
    const res = await request(app).get(url);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toContain(message);
    expect(upstream.count()).toBe(0);
  });

  it("accepts the largest id and sorts id lists into one key", async () => {
    expect((await request(app).get("/api/portal/message/news/9007199254740991")).status).toBe(404);
    await request(app).get("/api/portal/job/job/list?jobTypeIds=3,1,3&type=1");
    await request(app).get("/api/portal/job/job/list?type=1&jobTypeIds=1,3");
    expect(upstream.count("/api/portal/job/job/list")).toBe(1);
    expect(upstream.requests.at(-1)?.url).toBe("/api/portal/job/job/list?jobTypeIds=1%2C3&pageIndex=0&pageMaxCount=20&type=1");
  });

  it("answers a URL over 8 KB with 414", async () => {
    const res = await request(app).get(`/api/portal/sys/syscfg?x=${"a".repeat(9000)}`);
    expect(res.status).toBe(414);
    expect(upstream.count()).toBe(0);
  });

  it("answers oversized headers with 431 and keeps serving", async () => {
    const server = http.createServer(app).listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/api/portal/sys/syscfg", headers: { "x-big": "a".repeat(20_000) } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on("error", reject);
    });
    expect(status).toBe(431);
    const after = await fetch(`http://127.0.0.1:${port}/portal/healthz`);
    expect(after.status).toBe(200);
    server.close();
  });
});

describe("/api/portal reader", () => {
  const readerApp = (env: Record<string, string> = {}) =>
    createApp(testConfig({ API_BASE_URL: upstream.url, READER_RATE_PER_MIN: "5", ...env }));

  beforeEach(() => {
    let count = 0;
    upstream.routes.set("/api/portal/reader/reader", (_url: URL, body: string) => {
      if (body) count++;
      return { body: { code: 0, msg: "ok", data: body ? null : count } };
    });
  });

  it("forwards a PUT once per client and (type, pid) inside the window, never cached", async () => {
    const a = readerApp();
    const first = await request(a).put("/api/portal/reader/reader").send({ type: 2, pid: 5 });
    const repeat = await request(a).put("/api/portal/reader/reader").send({ type: 2, pid: 5 });
    const other = await request(a).put("/api/portal/reader/reader").send({ type: 1, pid: 5 });
    expect([first.status, repeat.status, other.status]).toEqual([200, 200, 200]);
    expect(repeat.body).toEqual({ code: 0, msg: "ok", data: null });
    expect(upstream.requests.filter((r) => r.method === "PUT").map((r) => JSON.parse(r.body))).toEqual([
      { type: 2, pid: 5 },
      { type: 1, pid: 5 },
    ]);
    const count1 = await request(a).get("/api/portal/reader/reader?type=2&pid=5");
    const count2 = await request(a).get("/api/portal/reader/reader?pid=5&type=2");
    expect(count1.body.data).toBe(2);
    expect(count2.headers["x-cache"]).toBeUndefined();
    expect(upstream.count("/api/portal/reader/reader")).toBe(4);
    const metrics = await a.portal.metrics.registry.metrics();
    expect(metrics).toContain('portal_reader_updates_total{outcome="forwarded"} 2');
    expect(metrics).toContain('portal_reader_updates_total{outcome="duplicate"} 1');
    expect(metrics).toContain('portal_upstream_requests_total{call="readerCount",outcome="2xx"} 2');
    a.portal.close();
  });

  it("answers 429 with Retry-After past the rate, counting every PUT received", async () => {
    const a = readerApp();
    const statuses: number[] = [];
    for (let pid = 1; pid <= 4; pid++) statuses.push((await request(a).put("/api/portal/reader/reader").send({ type: 2, pid })).status);
    statuses.push((await request(a).put("/api/portal/reader/reader").send("not json")).status);
    const limited = await request(a).put("/api/portal/reader/reader").send({ type: 2, pid: 9 });
    expect(statuses).toEqual([200, 200, 200, 200, 400]);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.body.code).toBe(429);
    expect(await a.portal.metrics.registry.metrics()).toContain('portal_reader_updates_total{outcome="limited"} 1');
    a.portal.close();
  });

  it("ignores a spoofed X-Forwarded-For unless the proxy is trusted", async () => {
    const untrusted = readerApp({ READER_RATE_PER_MIN: "1" });
    await request(untrusted).put("/api/portal/reader/reader").set("X-Forwarded-For", "1.1.1.1").send({ type: 2, pid: 1 });
    const spoofed = await request(untrusted).put("/api/portal/reader/reader").set("X-Forwarded-For", "2.2.2.2").send({ type: 2, pid: 2 });
    expect(spoofed.status).toBe(429);
    untrusted.portal.close();

    const trusted = readerApp({ READER_RATE_PER_MIN: "1", TRUST_PROXY: "loopback" });
    await request(trusted).put("/api/portal/reader/reader").set("X-Forwarded-For", "1.1.1.1").send({ type: 2, pid: 1 });
    const other = await request(trusted).put("/api/portal/reader/reader").set("X-Forwarded-For", "2.2.2.2").send({ type: 2, pid: 2 });
    expect(other.status).toBe(200);
    trusted.portal.close();
  });

  it("does not remember a PUT the upstream failed, so the retry counts", async () => {
    const a = readerApp();
    upstream.behaviour = "error";
    expect((await request(a).put("/api/portal/reader/reader").send({ type: 2, pid: 5 })).status).toBe(502);
    upstream.behaviour = "ok";
    expect((await request(a).put("/api/portal/reader/reader").send({ type: 2, pid: 5 })).status).toBe(200);
    expect(upstream.requests.filter((r) => r.method === "PUT")).toHaveLength(2);
    a.portal.close();
  });

  it.each([
    ["not json", "request body is not valid JSON"],
    ["null", "body must be a JSON object {type, pid}"],
    ['{"type":2,"pid":', "request body is not valid JSON"],
    ["[1,2]", "body must be a JSON object {type, pid}"],
    ['{"type":2,"pid":1,"count":99}', "body field count is not allowed"],
    ['{"type":3,"pid":1}', "type must be one of 1, 2"],
    ['{"type":"2","pid":1}', "type must be one of 1, 2"],
    ['{"type":2,"pid":"1"}', "pid must be an integer"],
    ['{"type":2,"pid":0}', "pid must be an integer"],
    ['{"type":2,"pid":1.5}', "pid must be an integer"],
    ['{"type":2,"pid":9007199254740992}', "pid must be an integer"],
  ])("answers the body %s with 400 and no upstream request", async (body, message) => {
    const res = await request(app).put("/api/portal/reader/reader").set("Content-Type", "application/json").send(body);
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain(message);
    expect(upstream.count()).toBe(0);
  });

  it("answers a body over 1 KB with 413", async () => {
    const res = await request(app)
      .put("/api/portal/reader/reader")
      .set("Content-Type", "application/json")
      .send(JSON.stringify({ type: 2, pid: 1, pad: "x".repeat(2000) }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 413, msg: "request body is too large", data: null });
    expect(upstream.count()).toBe(0);
  });
});
