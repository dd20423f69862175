// The jsapi_ticket (and the access token it is fetched with), kept until shortly before it expires: one fetch
// however many ask together, shared through Redis by every instance under a lock with a deadline, and no
// fetch for a minute after a failure (docs/behaviour.md#sharing-in-wechat).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { InFlight } from "../cache/in-flight.ts";
import type { Logger } from "../logger.ts";
import type { SharedTier } from "../redis/redis-connection.ts";
import { STALE_TOKEN_CODES, type WechatApi, WechatApiError, type WechatCall } from "./wechat-api.ts";

/** WeChat keeps an old token valid about five minutes after a new one: fetched again this long before expiry. */
const REFRESH_BEFORE_MS = 300_000;
const RETRY_AFTER_FAILURE_MS = 60_000;
const POLL_FIRST_MS = 5;
const POLL_MAX_MS = 100;

export interface Kept {
  token: string;
  tokenUntil: number;
  ticket: string;
  ticketUntil: number;
}

const keptShape = z.object({
  token: z.string().min(1).max(2048),
  tokenUntil: z.number(),
  ticket: z.string().min(1).max(2048),
  ticketUntil: z.number(),
});

/** The entry (while it lives it is fresh), else a failure's remaining pause, else the lock tried. */
const READ_OR_LOCK = `
local entry = redis.call('GET', KEYS[1])
if entry then return {entry, 2, 0} end
local paused = redis.call('PTTL', KEYS[3])
if paused > 0 then return {false, 3, paused} end
if redis.call('PTTL', KEYS[2]) == -1 then redis.call('DEL', KEYS[2]) end
if redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2], 'NX') then return {false, 1, 0} end
return {false, 0, 0}`;

const READ_STATE = `
return {redis.call('GET', KEYS[1]), redis.call('PTTL', KEYS[2]), redis.call('PTTL', KEYS[3])}`;

const STORE_AND_UNLOCK = `
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
if ARGV[4] ~= '' then redis.call('SET', KEYS[3], '1', 'PX', ARGV[4]) end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1`;

/** Signatures cannot be made now; `retryInMs` until the next fetch is tried. */
export class TicketUnavailable extends Error {
  readonly retryInMs: number;

  constructor(retryInMs: number) {
    super("WeChat's jsapi_ticket is not available");
    this.retryInMs = retryInMs;
  }
}

export interface TicketKeeperDeps {
  api: WechatApi;
  appId: string;
  shared: SharedTier | undefined;
  /** The longest one fetch of both may take (the deadlines of three calls and a margin); waiters give up then. */
  lockMs: number;
  logger: Logger;
  onFetch: (call: WechatCall, outcome: "ok" | "error") => void;
  now?: () => number;
}

export interface TicketKeeper {
  ticket(): Promise<string>;
}

const usableFor = (expiresInMs: number) => expiresInMs - Math.min(REFRESH_BEFORE_MS, expiresInMs / 2);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createTicketKeeper({ api, appId, shared, lockMs, logger, onFetch, now = Date.now }: TicketKeeperDeps): TicketKeeper {
  let kept: Kept | undefined;
  let pausedUntil = 0;
  const inFlight = new InFlight<string>();
  const keys = shared && [
    shared.key("wechat", appId, "ticket"),
    shared.key("wechat", appId, "lock"),
    shared.key("wechat", appId, "paused"),
  ];

  const counted = async <T>(call: WechatCall, work: () => Promise<T>): Promise<T> => {
    try {
      const result = await work();
      onFetch(call, "ok");
      return result;
    } catch (error) {
      onFetch(call, "error");
      throw error;
    }
  };

  /** Both from WeChat; a kept token is used while it lasts, and replaced once if WeChat says it no longer is valid. */
  const fetchBoth = async (): Promise<Kept> => {
    const fresh = async () => {
      const issued = await counted("token", () => api.token());
      return { token: issued.value, tokenUntil: now() + usableFor(issued.expiresInMs) };
    };
    let token = kept && kept.tokenUntil > now() ? { token: kept.token, tokenUntil: kept.tokenUntil } : await fresh();
    const reused = token.token === kept?.token;
    let issued: Awaited<ReturnType<WechatApi["ticket"]>>;
    try {
      issued = await counted("ticket", () => api.ticket(token.token));
    } catch (error) {
      if (!(reused && error instanceof WechatApiError && error.errcode !== undefined && STALE_TOKEN_CODES.has(error.errcode))) throw error;
      token = await fresh();
      issued = await counted("ticket", () => api.ticket(token.token));
    }
    return { ...token, ticket: issued.value, ticketUntil: now() + usableFor(issued.expiresInMs) };
  };

  const decode = (text: string | null): Kept | undefined => {
    if (!text) return undefined;
    let parsed: ReturnType<typeof keptShape.safeParse> | undefined;
    try {
      parsed = keptShape.safeParse(JSON.parse(text));
    } catch {}
    if (parsed?.success) return parsed.data;
    shared?.malformed("WeChat's kept ticket", { key: keys?.[0] });
    return undefined;
  };

  const failed = (error: unknown, pauseMs: number): never => {
    pausedUntil = now() + pauseMs;
    const reason = error instanceof Error ? error.message : String(error);
    logger.warn(
      { err: reason, retryInS: Math.ceil(pauseMs / 1000) },
      "WeChat's jsapi_ticket could not be fetched: signatures answer 502 until the next try",
    );
    throw new TicketUnavailable(pauseMs);
  };

  const fetchHere = async (): Promise<Kept> => {
    try {
      return await fetchBoth();
    } catch (error) {
      return failed(error, RETRY_AFTER_FAILURE_MS);
    }
  };

  /** Another instance holds the lock: its entry once stored, its pause if it failed, undefined if it went silent. */
  const theirs = async (): Promise<Kept | TicketUnavailable | undefined> => {
    if (!shared || !keys) return undefined;
    const giveUpAt = performance.now() + lockMs;
    for (let wait = POLL_FIRST_MS; performance.now() < giveUpAt; wait = Math.min(wait * 2, POLL_MAX_MS)) {
      await sleep(wait);
      const [text, lockTtl, pausedTtl] = await shared.run(
        (redis) => redis.eval(READ_STATE, 3, ...keys) as Promise<[string | null, number, number]>,
        [null, -2, -2] as const,
      );
      const entry = decode(text);
      if (entry) return entry;
      if (pausedTtl > 0) return new TicketUnavailable(pausedTtl);
      if (lockTtl <= 0) return undefined;
    }
    return undefined;
  };

  const fetchShared = async (): Promise<Kept> => {
    if (!shared || !keys) return fetchHere();
    const owner = randomUUID();
    const reply = await shared.run(
      (redis) => redis.eval(READ_OR_LOCK, 3, ...keys, owner, lockMs) as Promise<[string | null, number, number]>,
      undefined,
    );
    const entry = decode(reply?.[0] ?? null);
    if (entry) return entry;
    if (reply?.[1] === 3) {
      pausedUntil = now() + reply[2];
      throw new TicketUnavailable(reply[2]);
    }
    if (reply?.[1] === 0) {
      const answer = await theirs();
      if (answer instanceof TicketUnavailable) {
        pausedUntil = now() + answer.retryInMs;
        throw answer;
      }
      if (answer) return answer;
    }
    const locked = reply?.[1] === 1;
    const store = (value: string, ttlMs: number, pauseMs: number) =>
      shared.run((redis) => redis.eval(STORE_AND_UNLOCK, 3, ...keys, locked ? owner : "", value, Math.max(1, ttlMs), pauseMs || ""), 0);
    try {
      const fetched = await fetchBoth();
      await store(JSON.stringify(fetched), Math.min(fetched.ticketUntil, fetched.tokenUntil) - now(), 0);
      return fetched;
    } catch (error) {
      await store("", 1, RETRY_AFTER_FAILURE_MS);
      return failed(error, RETRY_AFTER_FAILURE_MS);
    }
  };

  return {
    async ticket() {
      if (kept && kept.ticketUntil > now()) return kept.ticket;
      if (pausedUntil > now()) throw new TicketUnavailable(pausedUntil - now());
      return inFlight.share("ticket", async () => {
        kept = await fetchShared();
        return kept.ticket;
      });
    },
  };
}
