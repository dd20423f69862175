/**
 * Purge fan-out between instances (REDIS_URL, docs/behaviour.md#purging). Each purge a
 * process received itself (`local`) is recorded in Redis, every tag, path or `all` with
 * the time (Redis's clock, so the instances' own clocks do not matter), and published on
 * the purge channel; every process of every instance subscribes and applies what the
 * others published as a `remote` purge (a worker's siblings may get it twice, once from
 * the cluster primary too: purging twice changes nothing).
 *
 * A process cut off from Redis misses what was published meanwhile. When it is back (the
 * tier resumes, or its subscription is made again) it reads the purges recorded since it
 * last caught up and applies them (soft: marked stale, refreshed by the next visitor), so
 * a missed message cannot leave a page stale. While Redis is away a purge still applies
 * here and to the other workers of this process group; the records kept a day bound the
 * set, well past any entry's life.
 *
 * Signed purges' ids are claimed in Redis too (SET NX for the replay window), so a replay
 * is refused by every instance, one started since included. Whoever can write to Redis
 * can publish: a message or a record that is not a purge by the body's rules is ignored.
 */
import { randomUUID } from "node:crypto";
import { type Redis, ReplyError } from "ioredis";
import type { Logger } from "../logger.ts";
import type { PubSub } from "../redis/pub-sub.ts";
import type { SharedTier } from "../redis/redis-connection.ts";
import { checkedPurgeRequest, isPurgePath, isPurgeTag, type PurgeRequest } from "./purge-request.ts";
import { type Purger, SEEN_FOR_MS } from "./purger.ts";

const CHANNEL = "purge";
const RECORD = "purges";
const SEEN_ID = "purge-id";
const KEEP_MS = 24 * 3_600_000;
const CLOCK_MARGIN_MS = 5_000;

interface PurgeNote {
  from: string;
  request: PurgeRequest;
}

/** A webhook id claimed by this purge (`new`), by an earlier one (`seen`), or Redis could not tell (`unknown`). */
export type IdClaim = "new" | "seen" | "unknown";

export interface SharedPurges {
  /** Claims a signed purge's webhook id for the replay window, across instances. */
  claimId(id: string): Promise<IdClaim>;
  /** Resolves once this process receives the other instances' purges. */
  subscribed: Promise<void>;
  /** Resolves once the latest catch-up has been applied (for tests and readiness to wait on). */
  caughtUp(): Promise<void>;
}

/** The members a purge is recorded under: `all`, `tag:<tag>`, `path:<path>`. */
function membersOf(request: PurgeRequest): string[] {
  return [...(request.all ? ["all"] : []), ...request.tags.map((tag) => `tag:${tag}`), ...request.paths.map((path) => `path:${path}`)];
}

/** The soft purge of recorded members. */
function requestOf(members: string[]): PurgeRequest {
  const request: PurgeRequest = { tags: [], paths: [], all: false, mode: "soft" };
  for (const member of members) {
    if (member === "all") request.all = true;
    else if (member.startsWith("tag:") && isPurgeTag(member.slice(4))) request.tags.push(member.slice(4));
    else if (member.startsWith("path:") && isPurgePath(member.slice(5))) request.paths.push(member.slice(5));
  }
  // "all" covers everything; a purge names either it or tags and paths.
  if (request.all) return { ...request, tags: [], paths: [] };
  return request;
}

function noteOf(message: string): PurgeNote | undefined {
  try {
    const note = JSON.parse(message) as Partial<PurgeNote> | null;
    const request = checkedPurgeRequest(note?.request);
    return typeof note?.from === "string" && request ? { from: note.from, request } : undefined;
  } catch {
    return undefined;
  }
}

/** Redis's clock, in ms: one clock for every instance. */
async function redisNow(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

export function joinSharedPurges(purger: Purger, tier: SharedTier, pubsub: PubSub, logger: Logger): SharedPurges {
  const self = randomUUID();
  const record = tier.key(RECORD);
  /**
   * When this process last read the record, by Redis's clock: purges after it may have been
   * missed. At first, its start by its own clock, less a margin for the clocks' difference
   * (a purge re-applied costs one refresh; one missed, a stale page).
   */
  let since = Date.now() - CLOCK_MARGIN_MS;
  let latest: Promise<void> = Promise.resolve();

  purger.onPurge((request, origin) => {
    if (origin !== "local") return;
    void tier.run(async (redis) => {
      const at = await redisNow(redis);
      await redis
        .multi()
        .zadd(record, ...membersOf(request).flatMap((member) => [at, member]))
        .zremrangebyscore(record, "-inf", at - KEEP_MS)
        .exec();
    }, undefined);
    void pubsub.publish(CHANNEL, JSON.stringify({ from: self, request } satisfies PurgeNote));
  });

  /** The members recorded since `from`; none when the record is not a sorted set (someone else wrote the key: it is dropped). */
  const recordedSince = async (redis: Redis, from: number): Promise<string[]> => {
    try {
      return await redis.zrangebyscore(record, from, "+inf");
    } catch (err) {
      if (!(err instanceof ReplyError)) throw err;
      tier.malformed("the purges' record", { key: record, err: (err as Error).message });
      await redis.del(record);
      return [];
    }
  };

  const catchUp = () => {
    latest = latest.then(async () => {
      const read = await tier.run(async (redis) => {
        const now = await redisNow(redis);
        return { now, members: await recordedSince(redis, since) };
      }, undefined);
      // Still away: the next resumption tries again from the same time.
      if (!read) return;
      since = read.now;
      if (read.members.length === 0) return;
      purger.purge(requestOf(read.members), "remote");
      logger.info({ purged: read.members.length }, "applied the purges made while this instance was away from Redis");
    });
    return latest;
  };
  tier.onResume(() => void catchUp());
  pubsub.onResubscribed(() => void catchUp());

  const subscribed = pubsub.subscribe(CHANNEL, (message) => {
    const note = noteOf(message);
    if (!note) tier.malformed("a purge message", { message: message.slice(0, 200) });
    else if (note.from !== self) purger.purge(note.request, "remote");
  });
  const claimId = async (id: string): Promise<IdClaim> => {
    const claimed = await tier.run((redis) => redis.set(tier.key(SEEN_ID, id), "1", "PX", SEEN_FOR_MS, "NX"), "unknown" as const);
    return claimed === "unknown" ? "unknown" : claimed === "OK" ? "new" : "seen";
  };
  return { claimId, subscribed, caughtUp: () => latest };
}
