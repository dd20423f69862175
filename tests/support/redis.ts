/**
 * Redis for the shared-tier tests. TEST_REDIS_URL names the server CI starts (.ci/redis.sh);
 * without it the suites are skipped, except in CI, where they fail.
 * Every key and channel a site uses starts with its site's id (the hash of its content
 * source), so the suites share that Redis with each other and with another checkout's run
 * of the tests at the same time: each reads, counts and removes only its own site's keys,
 * never a whole database. `startRedisServer` (harness/redis-server.ts) runs a
 * redis-server of a test's own on a free loopback port, for tests that stop it and start it again.
 */
import { Redis } from "ioredis";
import { describe, it } from "vitest";
import { siteIdOf } from "../../server/redis/redis-connection.ts";

const MISSING =
  "CI is set but TEST_REDIS_URL is not: the shared-tier suite cannot run. " +
  "Start a server with `TEST_REDIS_URL=$(bash .ci/redis.sh) npx vitest run tests/integration/shared-tier.test.ts`.";

/** Declares `suite` with the URL of TEST_REDIS_URL. */
export function describeWithRedis(title: string, suite: (url: string) => void): void {
  const url = process.env.TEST_REDIS_URL;
  if (url) {
    describe(title, () => suite(url));
  } else if (process.env.CI) {
    describe(title, () => {
      it("has a Redis to run against", () => {
        throw new Error(MISSING);
      });
    });
  } else {
    describe.skip(`${title} (TEST_REDIS_URL unset)`, () => {
      it("is skipped without TEST_REDIS_URL", () => {});
    });
  }
}

/** The start of every key of the site whose content comes from `contentSource` (its API_BASE_URL). */
export function siteKeyPrefix(contentSource: string): string {
  return `portal:v1:${siteIdOf(contentSource)}:`;
}

/** The keys of that site in the database at `url`. */
export async function siteKeys(url: string, contentSource: string): Promise<string[]> {
  const redis = new Redis(url);
  try {
    // The site id is base64url: nothing in the prefix is a pattern character.
    return await redis.keys(`${siteKeyPrefix(contentSource)}*`);
  } finally {
    redis.disconnect();
  }
}

/**
 * Removes the keys of that site: ones an earlier run left when a stand-in upstream had the
 * same port. While this test's upstream holds that port, no one else's site has this id.
 */
export async function emptySite(url: string, contentSource: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${siteKeyPrefix(contentSource)}*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

export { type RedisServer, startRedisServer } from "../../harness/redis-server.ts";
