/**
 * REDIS_URL with content in each language (docs/behaviour.md#languages): the shared tier
 * keeps an English answer and the Chinese one of the same call apart, so an instance
 * never serves one language's answer another instance loaded for the other.
 */
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { testConfig } from "../support/config.ts";
import { demoUpstreamRoutes } from "../support/demo-upstream.ts";
import { describeWithRedis, emptySite } from "../support/redis.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const PRODUCT = "/api/portal/product/product/4";

describeWithRedis("both languages on one shared tier", (redisUrl) => {
  let upstream: StandInUpstream;
  const instances: { app: PortalApp; server: http.Server; origin: string }[] = [];

  async function startInstance() {
    const config = testConfig({ API_BASE_URL: upstream.url, REDIS_URL: redisUrl, CONTENT_LANG_PARAM: "locale", MISS_RATE_PER_MIN: "0" });
    const app = createApp(config);
    await app.portal.sharedTier?.connected();
    const server = http.createServer(app).listen(0, "127.0.0.1");
    await once(server, "listening");
    const instance = { app, server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    instances.push(instance);
    return instance;
  }

  const nameAt = async (origin: string, path: string) => {
    const res = await fetch(origin + path);
    return { cache: res.headers.get("x-cache"), name: ((await res.json()) as { data: { name: string } }).data.name };
  };

  beforeAll(async () => {
    upstream = await startStandInUpstream(demoUpstreamRoutes("locale"));
  });
  beforeEach(() => emptySite(redisUrl, upstream.url));
  afterAll(async () => {
    for (const instance of instances.splice(0)) {
      instance.app.portal.close();
      instance.server.closeAllConnections();
      await new Promise((resolve) => instance.server.close(resolve));
    }
    await upstream.close();
  });

  it("serves each instance the language it asked for, loaded once per language across instances", async () => {
    const [a, b] = [await startInstance(), await startInstance()];
    const english = await nameAt(a.origin, `${PRODUCT}?lang=en`);
    expect(english).toEqual({ cache: "MISS", name: "Heshu Industrial IoT Platform" });
    // Another instance asking in Chinese is not given the English answer from Redis.
    expect((await nameAt(b.origin, PRODUCT)).name).toBe("禾数工业物联网平台");
    // ... and asking in English takes the one the first instance loaded.
    expect((await nameAt(b.origin, `${PRODUCT}?lang=en`)).name).toBe("Heshu Industrial IoT Platform");
    expect((await nameAt(a.origin, PRODUCT)).name).toBe("禾数工业物联网平台");
    expect(upstream.requests.filter((r) => r.url.startsWith(PRODUCT)).map((r) => r.url)).toEqual([`${PRODUCT}?locale=en`, PRODUCT]);
  });
});
