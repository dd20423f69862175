// The missing-pages log shared by all instances in Redis (docs/operations.md#several-instances-redis_url): each instance
// gathers its sightings for a second and adds them in one script run to a sorted set of fixed size (heavy hitters
// with admission, as heavy-hitters.ts);
// while Redis is away its own counts answer, and what it gathered meanwhile is added once Redis is back.
import { type Redis, ReplyError } from "ioredis";
import type { SharedTier } from "../redis/redis-connection.ts";
import { type HeavyHitter, HeavyHitters } from "./heavy-hitters.ts";
import { type LocalMissingPagesStore, type MissingPagesStore, mergeSightings, type Sighting } from "./missing-pages-store.ts";
import { missingPathOf, referrerOriginOf } from "./missing-path.ts";

const FLUSH_EVERY_MS = 1000;
/** Distinct paths gathered between two flushes: a flood is gathered in this many counters too. */
const PENDING_CAPACITY = 256;

/**
 * KEYS: counts (sorted set), first seen, last seen, referrer (hashes by path). ARGV: capacity, then per path: path,
 * count, the sender's own count of it (the sightings it knows, this batch's included), first seen, last seen,
 * referrer ("" for none). Past the capacity a new path takes the least one's place only when the sender counted it
 * more often than the least one's score (so a path seen once never displaces one seen more), and with its own count,
 * never the least one's: the set and the hashes never hold more than `capacity` paths, and a score is sightings seen.
 */
const ADD_SCRIPT = `
local capacity = tonumber(ARGV[1])
for i = 2, #ARGV, 6 do
  local path, count, known, first, last, referrer = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]), ARGV[i + 3], ARGV[i + 4], ARGV[i + 5]
  local counted = true
  if redis.call('ZSCORE', KEYS[1], path) then
    redis.call('ZINCRBY', KEYS[1], count, path)
  elseif redis.call('ZCARD', KEYS[1]) < capacity then
    redis.call('ZADD', KEYS[1], count, path)
  else
    local least = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    if known > tonumber(least[2]) then
      redis.call('ZREM', KEYS[1], least[1])
      for k = 2, 4 do redis.call('HDEL', KEYS[k], least[1]) end
      redis.call('ZADD', KEYS[1], known, path)
    else
      counted = false
    end
  end
  if counted then
    local seen = tonumber(redis.call('HGET', KEYS[2], path))
    if not seen or tonumber(first) < seen then redis.call('HSET', KEYS[2], path, first) end
    seen = tonumber(redis.call('HGET', KEYS[3], path))
    if not seen or tonumber(last) >= seen then
      redis.call('HSET', KEYS[3], path, last)
      if referrer ~= '' then redis.call('HSET', KEYS[4], path, referrer) end
    end
  end
end
return 1
`;

interface SharedOptions {
  capacity: number;
  flushEveryMs?: number;
}

export function sharedMissingPagesStore(tier: SharedTier, local: LocalMissingPagesStore, options: SharedOptions): MissingPagesStore {
  const keys = ["counts", "first", "last", "referrer"].map((part) => tier.key("missing", part));
  const pending = new HeavyHitters<Sighting>(PENDING_CAPACITY, mergeSightings);
  let flushing: Promise<void> = Promise.resolve();

  const flushOnce = async () => {
    if (pending.size === 0) return;
    const batch = pending.drain();
    // This process's own count of a path stands for it when the shared log is full: at least this batch's.
    const args = batch.flatMap(({ key, count, meta }) => [
      key,
      count,
      Math.max(count, local.countOf(key)),
      meta.firstSeen,
      meta.lastSeen,
      meta.referrer ?? "",
    ]);
    const add = (redis: Redis) => redis.eval(ADD_SCRIPT, keys.length, ...keys, options.capacity, ...args);
    const addOrStartAgain = async (redis: Redis) => {
      try {
        await add(redis);
      } catch (err) {
        // A key of another type, written by something else: Redis answers, so the log starts again empty.
        if (!(err instanceof ReplyError)) throw err;
        tier.malformed("the missing-pages log", { err: (err as Error).message });
        await redis.del(...keys);
        await add(redis);
      }
    };
    // Kept for a later flush when the script did not run: an outage delays the counts, it does not lose them. An
    // answer past the tier's deadline is waited for, so a script that ran late is never added twice.
    const keep = () => {
      for (const { key, count, meta } of batch) pending.add(key, meta, count);
    };
    let outcome: Promise<boolean> | undefined;
    await tier.run((redis) => {
      outcome = addOrStartAgain(redis).then(
        () => true,
        () => false,
      );
      return outcome.then((ran) => {
        if (!ran) throw new Error("the missing-pages script failed");
      });
    }, undefined);
    if (!outcome) keep();
    else void outcome.then((ran) => ran || keep());
  };
  const flush = () => {
    flushing = flushing.then(flushOnce);
    return flushing;
  };
  const timer = setInterval(flush, options.flushEveryMs ?? FLUSH_EVERY_MS).unref();

  const read = (n: number) =>
    tier.run(async (redis): Promise<HeavyHitter<Sighting>[]> => {
      const flat = await redis.zrevrange(keys[0] as string, 0, n - 1, "WITHSCORES").catch((err: unknown) => {
        if (!(err instanceof ReplyError)) throw err;
        tier.malformed("the missing-pages log", { err: (err as Error).message });
        return [];
      });
      const paths = flat.filter((_, i) => i % 2 === 0);
      if (paths.length === 0) return [];
      const [firsts, lasts, referrers] = await Promise.all(keys.slice(1).map((key) => redis.hmget(key, ...paths)));
      const entries: HeavyHitter<Sighting>[] = [];
      paths.forEach((path, i) => {
        const count = Number(flat[2 * i + 1]);
        const firstSeen = Number(firsts?.[i]);
        const lastSeen = Number(lasts?.[i]);
        const referrer = referrers?.[i] ?? null;
        const wellFormed = missingPathOf(path) === path && [count, firstSeen, lastSeen].every(Number.isFinite);
        if (!wellFormed || (referrer !== null && referrerOriginOf(referrer) !== referrer)) {
          tier.malformed("a missing page's path, count, times or referrer", { path: path.slice(0, 100) });
          return;
        }
        entries.push({ key: path, count, meta: { firstSeen, lastSeen, referrer } });
      });
      return entries.sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    }, undefined);

  return {
    note(path, sighting) {
      local.note(path, sighting);
      pending.add(path, sighting);
    },
    async top(n) {
      await flush();
      const shared = await read(n);
      return shared ? { entries: shared, shared: true } : local.top(n);
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
