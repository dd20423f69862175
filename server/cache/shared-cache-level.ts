// The cache's second level, shared in Redis: one instance loads a cold key under a short lock while the others
// wait, and what is read back is judged as input (docs/behaviour.md#api-cache).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { SharedTier } from "../redis/redis-connection.ts";
import type { Load, Loaded, SecondLevel } from "./swr-cache.ts";

type SharedMeta = Record<string, string | number>;

/** `encode` gives undefined for a value not to share. */
export interface SharedCodec<V> {
  encode(value: V): { meta: SharedMeta; body: Buffer } | undefined;
  decode(meta: SharedMeta, body: Buffer, key: string): Promise<V | undefined>;
}

interface SharedCacheLevelOptions<V> {
  namespace: string;
  codec: SharedCodec<V>;
  staleMs: number;
  /** The longest a load may hold the lock (the upstream timeout and a margin); waiters give up then. */
  lockMs: number;
  now?: () => number;
}

const MAX_SHARED_BYTES = 1024 * 1024;
const MAX_HEADER_BYTES = 4096;
const MAX_ENTRY_BYTES = MAX_SHARED_BYTES + MAX_HEADER_BYTES;
const FRESH_DIGITS = 15;
const MAX_FRESH_MS = 999_999_999;
const CLOCK_AHEAD_MS = 60_000;
const POLL_FIRST_MS = 5;
const POLL_MAX_MS = 50;

/** The entry at a key: a string of at most ARGV max bytes, else false (nothing there, too long, another type). */
const ENTRY_AT = `
local function entryAt(key, max)
  local length = redis.pcall('STRLEN', key)
  if type(length) ~= 'number' or length == 0 or length > tonumber(max) then return false end
  return redis.call('GET', key)
end`;

/** The entry if it is fresh at ARGV[3]; else the lock is tried too: {entry or false, 1 taken / 0 held by another}. */
const READ_OR_LOCK = `${ENTRY_AT}
local entry = entryAt(KEYS[1], ARGV[4])
local freshUntil = entry and tonumber(string.sub(entry, 1, ${FRESH_DIGITS}))
if freshUntil and freshUntil > tonumber(ARGV[3]) then return {entry, 2} end
-- Every lock is taken with an expiry: one without is not ours, and would hold the key for ever.
if redis.call('PTTL', KEYS[2]) == -1 then redis.call('DEL', KEYS[2]) end
local taken = redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2], 'NX')
if taken then return {entry, 1} end
return {entry, 0}`;

/** The entry, and 1 while a lock (with an expiry) is held on it. */
const READ_AND_LOCK_STATE = `${ENTRY_AT}
return {entryAt(KEYS[1], ARGV[1]), redis.call('PTTL', KEYS[2]) > 0 and 1 or 0}`;

const READ = `${ENTRY_AT}
return entryAt(KEYS[1], ARGV[1])`;

const STORE_AND_UNLOCK = `
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
if redis.pcall('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1`;

const entryHeader = z.object({
  madeAt: z.number().min(0).max(Number.MAX_SAFE_INTEGER),
  freshForMs: z.number().min(0).max(MAX_FRESH_MS),
  meta: z.record(z.string(), z.union([z.string(), z.number()])),
});

interface SharedEntry<V> {
  value: V;
  madeAt: number;
  freshForMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createSharedCacheLevel<V>(tier: SharedTier, options: SharedCacheLevelOptions<V>): SecondLevel<V> {
  const { codec, staleMs, lockMs } = options;
  const now = options.now ?? Date.now;

  // `<freshUntil, 15 digits><JSON header>\n<body>`: the scripts tell fresh from stale without parsing the rest.
  const encode = (loaded: Loaded<V>, madeAt: number): Buffer | undefined => {
    if (loaded.freshForMs === undefined) return undefined;
    const encoded = codec.encode(loaded.value);
    if (!encoded || encoded.body.length > MAX_SHARED_BYTES) return undefined;
    const freshUntil = String(madeAt + loaded.freshForMs).padStart(FRESH_DIGITS, "0");
    const header = JSON.stringify({ madeAt, freshForMs: loaded.freshForMs, meta: encoded.meta });
    return Buffer.concat([Buffer.from(`${freshUntil}${header}\n`), encoded.body]);
  };

  const read = async (key: string, bytes: Buffer): Promise<SharedEntry<V> | undefined> => {
    const newline = bytes.indexOf(10, FRESH_DIGITS);
    if (bytes.length > MAX_ENTRY_BYTES || newline === -1 || newline > FRESH_DIGITS + MAX_HEADER_BYTES) return undefined;
    const freshUntil = bytes.subarray(0, FRESH_DIGITS).toString("latin1");
    const parsed = entryHeader.safeParse(JSON.parse(bytes.subarray(FRESH_DIGITS, newline).toString("utf8")));
    if (!parsed.success || !/^\d+$/.test(freshUntil)) return undefined;
    const { madeAt, freshForMs, meta } = parsed.data;
    if (Number(freshUntil) !== madeAt + freshForMs || madeAt > now() + CLOCK_AHEAD_MS) return undefined;
    const value = await codec.decode(meta, bytes.subarray(newline + 1), key);
    return value === undefined ? undefined : { value, madeAt, freshForMs };
  };

  /** An entry that cannot be one of ours (whoever wrote it) is a miss, never an error. */
  const decode = async (key: string, bytes: Buffer | null | undefined): Promise<SharedEntry<V> | undefined> => {
    if (!bytes || bytes.length === 0) return undefined;
    const entry = await read(key, bytes).catch(() => undefined);
    if (!entry) tier.malformed("a shared cache entry", { cache: options.namespace, key });
    return entry;
  };

  const loadedOf = (entry: SharedEntry<V>): Loaded<V> => ({ value: entry.value, freshForMs: entry.freshForMs, madeAt: entry.madeAt });
  const isFresh = (entry: SharedEntry<V> | undefined): entry is SharedEntry<V> =>
    entry !== undefined && entry.madeAt + entry.freshForMs > now();
  const isServable = (entry: SharedEntry<V> | undefined): entry is SharedEntry<V> =>
    entry !== undefined && entry.madeAt + entry.freshForMs + staleMs > now();

  /** The winner's answer once it is stored; undefined when the lock went without one, or outlived its time. */
  const answerOfLockHolder = async (key: string, entryKey: string, lockKey: string): Promise<SharedEntry<V> | undefined> => {
    const giveUpAt = performance.now() + lockMs;
    for (let wait = POLL_FIRST_MS; performance.now() < giveUpAt; wait = Math.min(wait * 2, POLL_MAX_MS)) {
      await sleep(wait);
      const [bytes, held] = await tier.run(
        (redis) =>
          redis.callBuffer("EVAL", [READ_AND_LOCK_STATE, 2, entryKey, lockKey, MAX_ENTRY_BYTES]) as Promise<[Buffer | null, number]>,
        [null, 0] as const,
      );
      const entry = await decode(key, bytes);
      if (isFresh(entry)) return entry;
      if (held !== 1) return undefined;
    }
    return undefined;
  };

  const loadAndShare = async (entryKey: string, lockKey: string, load: Load<V>, token: string, stale: SharedEntry<V> | undefined) => {
    const unlockWith = (bytes: Buffer | undefined, ttlMs: number) =>
      tier.run((redis) => redis.callBuffer("EVAL", [STORE_AND_UNLOCK, 2, entryKey, lockKey, token, bytes ?? "", ttlMs]), undefined);
    let loaded: Loaded<V>;
    try {
      loaded = await load();
    } catch (err) {
      if (token) await unlockWith(undefined, 0);
      if (isServable(stale)) return loadedOf(stale);
      throw err;
    }
    const madeAt = now();
    const bytes = encode(loaded, madeAt);
    if (bytes || token) await unlockWith(bytes, Math.max(1, (loaded.freshForMs ?? 0) + staleMs));
    return { ...loaded, madeAt };
  };

  const entryKeyOf = (key: string) => tier.key("cache", options.namespace, key);

  return {
    async fresh(key) {
      const bytes = await tier.run(
        (redis) => redis.callBuffer("EVAL", [READ, 1, entryKeyOf(key), MAX_ENTRY_BYTES]) as Promise<Buffer | null>,
        null,
      );
      const entry = await decode(key, bytes);
      return isFresh(entry) ? loadedOf(entry) : undefined;
    },
    forget(keys) {
      // Sent before any refresh that follows on the same connection, so none of them finds the purged entry.
      void tier.run((redis) => redis.del(...keys.map(entryKeyOf)), 0);
    },
    async load(key, load) {
      const entryKey = entryKeyOf(key);
      const lockKey = tier.key("lock", options.namespace, key);
      const token = randomUUID();
      const reply = await tier.run(
        (redis) =>
          redis.callBuffer("EVAL", [READ_OR_LOCK, 2, entryKey, lockKey, token, lockMs, now(), MAX_ENTRY_BYTES]) as Promise<
            [Buffer | null, number]
          >,
        undefined,
      );
      const shared = await decode(key, reply?.[0]);
      if (reply?.[1] === 2 && isFresh(shared)) return loadedOf(shared);
      if (reply?.[1] === 0) {
        const theirs = await answerOfLockHolder(key, entryKey, lockKey);
        if (theirs) return loadedOf(theirs);
      }
      return loadAndShare(entryKey, lockKey, load, reply?.[1] === 1 ? token : "", shared);
    },
  };
}
