/**
 * Per-test setup of the shared-tier suites: a stand-in upstream with site settings, news and
 * a reader count, and app instances on a Redis, each a real HTTP server on 127.0.0.1 with its
 * log lines kept; all of them closed after the test. `upstream` is a live binding.
 */
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterEach, beforeEach } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import { testConfig } from "./config.ts";
import { type StandInUpstream, startStandInUpstream } from "./stand-in-upstream.ts";

export const SYSCFG = "/api/portal/sys/syscfg";
export const NEWS = { id: 1, title: "真实新闻", brief: "简介", img: "", dateTime: "20240101000000", detail: "<p>正文</p>" };
export const VISITOR = "198.51.100.20";

export interface Instance {
  app: PortalApp;
  origin: string;
  server: http.Server;
  /** The instance's log lines, parsed. */
  logs: { level: string; msg: string }[];
}

export let upstream: StandInUpstream;
const instances: Instance[] = [];

/** An instance on `redisUrl` with these variables set; with `pages`, rendering pages from the production build. */
export async function startInstance(
  redisUrl: string,
  env: Record<string, string> = {},
  options: { pages?: boolean } = {},
): Promise<Instance> {
  const logs: Instance["logs"] = [];
  const logger = pino(
    { level: "info", formatters: { level: (label) => ({ level: label }) } },
    { write: (line: string) => logs.push(JSON.parse(line)) },
  );
  const config = testConfig({ API_BASE_URL: upstream.url, REDIS_URL: redisUrl, TRUST_PROXY: "loopback", MISS_RATE_PER_MIN: "0", ...env });
  const app = createApp(config, { logger, renderer: options.pages ? await createProdRenderer() : undefined });
  await app.portal.sharedTier?.connected();
  const server = http.createServer(app).listen(0, "127.0.0.1");
  await once(server, "listening");
  const instance = { app, server, logs, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  instances.push(instance);
  return instance;
}

export const startInstances = (count: number, redisUrl: string, env?: Record<string, string>) =>
  Promise.all(Array.from({ length: count }, () => startInstance(redisUrl, env)));

/** A request from the visitor at `address` (behind the trusted loopback proxy). */
export async function send(instance: Instance, path: string, init: { method?: string; body?: unknown; address?: string } = {}) {
  const res = await fetch(instance.origin + path, {
    method: init.method ?? "GET",
    headers: { "x-forwarded-for": init.address ?? VISITOR, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export const readiness = async (instance: Instance) =>
  JSON.parse((await send(instance, "/portal/readyz")).text) as { status: string; sharedTier: string };

/** Waits until every instance has a load of the cache under way (so each is asking for the key itself). */
export async function untilEveryInstanceLoads(list: Instance[]): Promise<void> {
  while (list.some((instance) => instance.app.portal.cache.loading === 0)) await new Promise((resolve) => setImmediate(resolve));
}

/** 50 simultaneous requests for `path` spread over `list`, the upstream holding its (first) answer until every instance has asked. */
export async function coldKeyRequests(list: Instance[], path: string) {
  const release = upstream.hold(path);
  const answers = Array.from({ length: 50 }, (_, i) => send(list[i % list.length] as Instance, path));
  await untilEveryInstanceLoads(list);
  release();
  return Promise.all(answers);
}

const SETTINGS_NEWS_AND_READER: Record<string, unknown> = {
  "/api/portal/sys/syscfg": { themePortal: "1,1" },
  "/api/portal/message/news/1": NEWS,
  "/api/portal/message/news/2": { ...NEWS, id: 2 },
  "/api/portal/message/news/5": { ...NEWS, id: 5 },
  "/api/portal/reader/reader": 7,
};

/**
 * Starts the upstream (with these routes, else site settings, news and a reader count) before each test
 * of the calling file, and closes it and every instance after it (an instance's writes to Redis finished first).
 */
export function instancesForEachTest(routes: Record<string, unknown> = SETTINGS_NEWS_AND_READER): void {
  beforeEach(async () => {
    upstream = await startStandInUpstream(routes);
  });

  afterEach(async () => {
    for (const instance of instances.splice(0)) {
      await instance.app.portal.close();
      instance.server.closeAllConnections();
      await new Promise((resolve) => instance.server.close(resolve));
    }
    await upstream.close();
  });
}
