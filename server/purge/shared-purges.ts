/**
 * Purge fan-out between instances through Redis: recorded by Redis's clock, published, and caught
 * up on after a cut, so a missed message cannot leave a page stale (docs/behaviour.md#purging, "Fan-out").
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

/** `unknown`: Redis could not tell. */
export type IdClaim = "new" | "seen" | "unknown";

export interface SharedPurges {
  /** For the replay window, across instances. */
  claimId(id: string): Promise<IdClaim>;
  subscribed: Promise<void>;
  /** Resolves once the latest catch-up has been applied. */
  caughtUp(): Promise<void>;
}

/** `all`, `tag:<tag>`, `path:<path>`. */
function membersOf(request: PurgeRequest): string[] {
  return [...(request.all ? ["all"] : []), ...request.tags.map((tag) => `tag:${tag}`), ...request.paths.map((path) => `path:${path}`)];
}

function requestOf(members: string[]): PurgeRequest {
  const request: PurgeRequest = { tags: [], paths: [], all: false, mode: "soft" };
  for (const member of members) {
    if (member === "all") request.all = true;
    else if (member.startsWith("tag:") && isPurgeTag(member.slice(4))) request.tags.push(member.slice(4));
    else if (member.startsWith("path:") && isPurgePath(member.slice(5))) request.paths.push(member.slice(5));
  }
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

async function redisNow(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

export function joinSharedPurges(purger: Purger, tier: SharedTier, pubsub: PubSub, logger: Logger): SharedPurges {
  const self = randomUUID();
  const record = tier.key(RECORD);
  /** By Redis's clock; at first this process's start by its own, less a margin (one purge too many costs a refresh). */
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

  /** None when the record is not a sorted set (someone else wrote the key: it is dropped). */
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
