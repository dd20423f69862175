/**
 * Redis for the shared-tier tests. `testRedisUrl` is the server CI starts (.ci/redis.sh,
 * TEST_REDIS_URL); without it the suites are skipped, except in CI, where they fail.
 * `startRedisServer` (harness/redis-server.ts) runs a redis-server of a test's own on a
 * free loopback port, for tests that stop it and start it again.
 */
import { Redis } from "ioredis";
import { describe, it } from "vitest";

const MISSING =
  "CI is set but TEST_REDIS_URL is not: the shared-tier suite cannot run. " +
  "Start a server with `TEST_REDIS_URL=$(bash .ci/redis.sh) npx vitest run tests/integration/shared-tier.test.ts`.";

/** Declares `suite` with the URL of TEST_REDIS_URL's database `db` (each file its own, flushed by `emptyDatabase`). */
export function describeWithRedis(title: string, db: number, suite: (url: string) => void): void {
  const base = process.env.TEST_REDIS_URL;
  if (base) {
    describe(title, () => suite(`${base.replace(/\/\d*$/, "")}/${db}`));
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

/** Removes every key of the database at `url`. */
export async function emptyDatabase(url: string): Promise<void> {
  const redis = new Redis(url);
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

export { type RedisServer, startRedisServer } from "../../harness/redis-server.ts";
