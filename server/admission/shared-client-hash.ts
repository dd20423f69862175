// What names a client in a Redis key: a keyed hash of it, the same on every instance sharing the Redis, so keys
// read on their own (a key listing, a log, a backup of keys) never show an address (docs/behaviour.md#client-keys-in-redis).
import { createHmac, randomBytes } from "node:crypto";
import type { SharedTier } from "../redis/redis-connection.ts";

/** The hash of `client` (or of a key holding one), or undefined while no instance-wide key is known: count locally. */
export type ClientHash = (client: string) => Promise<string | undefined>;

/** 16 bytes: no two clients meet by chance, and a key stays short. */
const HASH_BYTES = 16;
/** A salt lost (evicted, flushed) is written back, and a differing one adopted, this soon. */
const SALT_REREAD_MS = 60_000;
const SALT_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * KEYS: the salt. ARGV: the salt to store when none is there (this instance's, else a new one). Returns the salt every
 * instance uses, and 1 when something else stood in its place (replaced, and logged once by the caller).
 */
const SALT_SCRIPT = `
local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'string' then
  local salt = redis.call('GET', KEYS[1])
  if string.len(salt) == 43 and not string.find(salt, '[^%w_%-]') then return {salt, 0} end
end
if kind ~= 'none' then redis.call('DEL', KEYS[1]) end
redis.call('SET', KEYS[1], ARGV[1])
return {ARGV[1], kind == 'none' and 0 or 1}
`;

const hashWith = (key: Buffer | string) => (client: string) =>
  createHmac("sha256", key).update(client).digest().subarray(0, HASH_BYTES).toString("base64url");

/**
 * `secret` (FORM_SECRET, which every instance has when several share): a key Redis never holds. Without it, a salt
 * the first instance stores in Redis and every other reads; until one is read (Redis away), undefined.
 */
export function sharedClientHash(tier: SharedTier, secret: string | undefined, now: () => number = Date.now): ClientHash {
  if (secret) {
    const hash = hashWith(createHmac("sha256", secret).update("redis-client-key").digest());
    return async (client) => hash(client);
  }
  const saltKey = tier.key("client-salt");
  let salt: string | undefined;
  let hash: ((client: string) => string) | undefined;
  let readAt = 0;
  let reading: Promise<void> | undefined;

  const read = async () => {
    const offered = salt ?? randomBytes(32).toString("base64url");
    const answer = await tier.run((redis) => redis.eval(SALT_SCRIPT, 1, saltKey, offered), undefined);
    if (!Array.isArray(answer)) return;
    const [stored, replaced] = answer as [unknown, unknown];
    if (typeof stored !== "string" || !SALT_PATTERN.test(stored)) return;
    if (replaced === 1) tier.malformed("the client-key salt", { key: saltKey });
    readAt = now();
    if (stored !== salt) {
      salt = stored;
      hash = hashWith(stored);
    }
  };
  const reread = () => {
    reading ??= read().finally(() => {
      reading = undefined;
    });
    return reading;
  };
  // A Redis started again empty gets this instance's salt back before a newcomer can store another.
  tier.onResume(() => void reread());
  // Read once connected, before traffic: a first read made under a burst of requests can miss the tier's deadline.
  void tier.connected().then(() => reread());

  return async (client) => {
    if (!hash) await reread();
    else if (now() - readAt >= SALT_REREAD_MS) void reread();
    return hash?.(client);
  };
}
