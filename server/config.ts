/**
 * The configuration, parsed once at startup into a typed object (docs/behaviour.md#configuration).
 * `parseConfig` takes the environment as an argument, so tests never touch process.env.
 */

import path from "node:path";
import { z } from "zod";
import type { ClassifyMenu } from "../shared/entities.ts";
import { KNOWN_LANGS, knownLangOf, type Lang } from "../shared/langs.ts";
import { DEFAULT_SITE_LANGS } from "../shared/site-langs.ts";
import { trustedProxiesProblem } from "./trust-proxy.ts";

/** The query parameter the embedded content API reads a language from. */
export const EMBEDDED_LANG_PARAM = "lang";

const integer = (min: number, max: number, what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be ${what}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be ${what}`).max(max, `must be ${what}`));

const ms = (max = 86_400_000) => integer(0, max, `a whole number of milliseconds from 0 to ${max}`);

/** No part is quoted from a value that may hold a URL's userinfo: a password may hold a comma. */
const badPart = (raw: string, part: string) => (raw.includes("@") ? "" : ` (bad part "${part.trim()}")`);

/** `/message/=10000,/sys/=300000` */
const ttlOverrides = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    const out: { prefix: string; ttlMs: number }[] = [];
    for (const part of raw.split(",").filter((p) => p.trim() !== "")) {
      const match = /^\s*(\/[^=\s]*)=(\d{1,9})\s*$/.exec(part);
      if (!match) {
        ctx.addIssue({
          code: "custom",
          message: `must be path=milliseconds pairs joined by commas, e.g. /message/=10000,/sys/=300000${badPart(raw, part)}`,
        });
        return z.NEVER;
      }
      out.push({ prefix: match[1] as string, ttlMs: Number(match[2]) });
    }
    return out.sort((a, b) => b.prefix.length - a.prefix.length);
  });

const classifyEntry = z.strictObject({
  menuId: z.number().int().min(1),
  api: z.string().regex(/^\/api\/portal\/[A-Za-z0-9/_.-]+$/),
  path: z.string().regex(/^\/[A-Za-z0-9/_.-]*$/),
});

const classify = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    try {
      return z.array(classifyEntry).parse(JSON.parse(raw)) as ClassifyMenu[];
    } catch {
      ctx.addIssue({ code: "custom", message: 'must be a JSON list of {"menuId":1,"api":"/api/portal/...","path":"/product"}' });
      return z.NEVER;
    }
  });

const origin = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    try {
      const url = new URL(raw);
      if (
        (url.protocol === "http:" || url.protocol === "https:") &&
        (url.pathname === "/" || url.pathname === "") &&
        !url.search &&
        !url.hash &&
        !url.username
      ) {
        return url.origin;
      }
    } catch {}
    ctx.addIssue({ code: "custom", message: "must be an absolute http(s) origin such as https://www.example.com" });
    return z.NEVER;
  });

const origins = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    const out: string[] = [];
    for (const part of raw.split(",").filter((p) => p.trim() !== "")) {
      const parsed = origin.safeParse(part);
      if (!parsed.success) {
        ctx.addIssue({
          code: "custom",
          message: `must be http(s) origins joined by commas, such as https://img.example.com${badPart(raw, part)}`,
        });
        return z.NEVER;
      }
      out.push(parsed.data);
    }
    return out;
  });

const databaseUrl = z
  .string()
  .trim()
  .refine((v) => /^sqlite:.+/.test(v) || /^postgres(ql)?:\/\/.+/.test(v), "must be sqlite:PATH or postgres://...");

const TRUST_PROXY_FORMS = "a hop count (such as 1), loopback, or the proxies' addresses/subnets joined by commas";
/** A count longer than the chain believes the client's own X-Forwarded-For entries: a mistake, never a need. */
const MAX_TRUSTED_HOPS = 10;

/** Checked as Express will compile it; what would trust every address is refused (docs/behaviour.md#configuration). */
const trustProxy = z
  .string()
  .trim()
  .transform((raw, ctx): false | number | string => {
    if (raw === "false") return false;
    const fail = (message: string) => {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    if (/^\d+$/.test(raw)) {
      const hops = Number(raw);
      return hops <= MAX_TRUSTED_HOPS ? hops : fail(`must be a hop count from 0 to ${MAX_TRUSTED_HOPS} (a proxy chain is rarely over 3)`);
    }
    if (raw.toLowerCase() === "true") {
      return fail(`must not be true (that trusts every hop, so any client could spoof its address): give ${TRUST_PROXY_FORMS}`);
    }
    const problem = trustedProxiesProblem(raw);
    if (problem && "everyone" in problem) {
      return fail(`must not trust every ${problem.everyone} address (its subnets together cover them all, as true does)`);
    }
    if (problem) return fail(`must be ${TRUST_PROXY_FORMS} (${problem.unreadable})`);
    return raw;
  });

/** A path is kept as a prefix for every upstream call. */
const baseUrl = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    try {
      const url = new URL(raw);
      if ((url.protocol === "http:" || url.protocol === "https:") && !url.search && !url.hash && !url.username) {
        return url.origin + url.pathname.replace(/\/+$/, "");
      }
    } catch {}
    ctx.addIssue({ code: "custom", message: "must be an absolute http(s) URL such as https://cms.example.com" });
    return z.NEVER;
  });

/** The text a Bearer token must equal, and the HMAC key its base64 part decodes to. */
export interface PurgeSecret {
  text: string;
  key: Buffer;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Several at once while one is rotated out. */
const purgeSecrets = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    const secrets: PurgeSecret[] = [];
    for (const text of raw.split(",").map((part) => part.trim())) {
      const base64 = text.startsWith("whsec_") ? text.slice("whsec_".length) : "";
      const key = BASE64.test(base64) ? Buffer.from(base64, "base64") : Buffer.alloc(0);
      if (key.length < 16) {
        ctx.addIssue({
          code: "custom",
          message: "must be whsec_ followed by the base64 of at least 16 random bytes, several joined by commas",
        });
        return z.NEVER;
      }
      secrets.push({ text, key });
    }
    return secrets;
  });

const redisUrl = z
  .string()
  .trim()
  .refine((raw) => {
    try {
      const url = new URL(raw);
      return (url.protocol === "redis:" || url.protocol === "rediss:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be a redis:// or rediss:// URL such as redis://redis.internal:6379");

const postUrl = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    try {
      const url = new URL(raw);
      if ((url.protocol === "http:" || url.protocol === "https:") && !url.hash) return url.href;
    } catch {}
    ctx.addIssue({ code: "custom", message: "must be an absolute http(s) URL such as https://hooks.example.com/enquiries" });
    return z.NEVER;
  });

const smtpUrl = z
  .string()
  .trim()
  .refine((raw) => {
    try {
      const url = new URL(raw);
      return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com:465");

/** An address alone: nothing a header could be built from. */
const MAILBOX = /^[^\s@<>()",;:]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
const mailbox = z.string().trim().regex(MAILBOX, "must be an email address such as website@example.com");
const mailboxes = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    const list = raw
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    if (list.length === 0 || !list.every((address) => MAILBOX.test(address))) {
      ctx.addIssue({ code: "custom", message: "must be email addresses joined by commas, such as sales@example.com" });
      return z.NEVER;
    }
    return list;
  });

/** IndexNow's own rule for a key (https://www.indexnow.org/documentation). */
const indexNowKey = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{8,128}$/, "must be 8 to 128 characters of a-z, A-Z, 0-9 and -");
/** Languages by their tags, as written or in lower case (`zh-TW`, `zh-tw`): only those the interface is translated into. */
const langList = z.string().transform((raw, ctx) => {
  const langs: Lang[] = [];
  for (const tag of raw.split(",").map((part) => part.trim())) {
    const lang = knownLangOf(tag);
    if (!lang) {
      ctx.addIssue({
        code: "custom",
        message: `names "${tag}", a language without interface strings (there are ${KNOWN_LANGS.join(", ")})`,
      });
      return z.NEVER;
    }
    if (langs.includes(lang)) {
      ctx.addIssue({ code: "custom", message: `names ${lang} twice` });
      return z.NEVER;
    }
    langs.push(lang);
  }
  return langs;
});

const envSchema = z.object({
  PORT: integer(0, 65535, "a port number from 0 to 65535").default(3000),
  HOST: z.string().trim().min(1, "must be a host name or address").default("0.0.0.0"),
  API_BASE_URL: baseUrl.optional(),
  DATABASE_URL: databaseUrl.default("sqlite:./data/portal.db"),
  CACHE_TTL_MS: ms().default(30_000),
  CACHE_TTL_OVERRIDES: ttlOverrides.default([]),
  CACHE_STALE_MS: ms(30 * 86_400_000).default(600_000),
  CACHE_MAX_MB: integer(1, 65536, "a whole number of megabytes from 1 to 65536").default(64),
  UPSTREAM_TIMEOUT_MS: integer(1, 600_000, "a whole number of milliseconds from 1 to 600000").default(5000),
  READER_DEDUP_WINDOW_MS: ms().default(600_000),
  PORTAL_CLASSIFY: classify.optional(),
  PORTAL_LANGS: langList.optional(),
  PORTAL_LANG: z.string().trim().optional(),
  CONTENT_LANG_PARAM: z
    .string()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, "must be a query parameter name of letters, digits, _ . - (at most 64)")
    .optional(),
  PORTAL_HOME_SCRIPT: z.enum(["on", "off"], "must be on or off").default("on"),
  READER_RATE_PER_MIN: integer(1, 100_000, "a whole number from 1 to 100000").default(30),
  MISS_RATE_PER_MIN: integer(0, 1_000_000, "a whole number from 0 (no limit) to 1000000").default(600),
  PUBLIC_ORIGIN: origin.optional(),
  WEB_CONCURRENCY: integer(1, 64, "a whole number of worker processes from 1 to 64").default(1),
  TRUST_PROXY: trustProxy.optional(),
  IMAGE_HOSTS: origins.default([]),
  IMAGE_MAX_MB: integer(1, 1024, "a whole number of megabytes from 1 to 1024").default(20),
  IMAGE_CACHE_DIR: z.string().trim().min(1, "must be a folder path").default("./data/images"),
  IMAGE_CACHE_MB: integer(1, 1_048_576, "a whole number of megabytes from 1 to 1048576").default(512),
  IMAGE_ALLOW_SVG: z.enum(["on", "off"], "must be on or off").default("off"),
  PAGE_CACHE: z.enum(["on", "off"], "must be on or off").default("on"),
  PURGE_SECRET: purgeSecrets.optional(),
  PREVIEW_SECRET: purgeSecrets.optional(),
  PREVIEW_PARAM: z
    .string()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, "must be a query parameter name of letters, digits, _ . - (at most 64)")
    .default("preview"),
  REDIS_URL: redisUrl.optional(),
  METRICS_PORT: integer(0, 65535, "a port number from 0 to 65535").optional(),
  METRICS_HOST: z.string().trim().min(1, "must be a host name or address").default("127.0.0.1"),
  SEED_CONTENT: z.enum(["demo", "none"], "must be demo or none").default("demo"),
  SEARCH_REFRESH_MS: ms().default(600_000),
  SEARCH_INDEX_PATH: z.string().trim().min(1, "must be a file path").optional(),
  REDIRECTS_FILE: z.string().trim().min(1, "must be a file path").optional(),
  SHUTDOWN_DRAIN_MS: ms(600_000).default(5000),
  SHUTDOWN_GRACE_MS: ms(600_000).default(10_000),
  FORM_SECRET: z.string().trim().min(16, "must be at least 16 characters of random text").optional(),
  ENQUIRY_RATE_PER_HOUR: integer(1, 10_000, "a whole number from 1 to 10000").default(5),
  ENQUIRY_RETENTION_DAYS: integer(1, 36_500, "a whole number of days from 1 to 36500").default(180),
  ENQUIRY_WEBHOOK_URL: postUrl.optional(),
  ENQUIRY_WEBHOOK_SECRET: purgeSecrets.optional(),
  SMTP_URL: smtpUrl.optional(),
  ENQUIRY_TO: mailboxes.optional(),
  ENQUIRY_FROM: mailbox.optional(),
  INDEXNOW_KEY: indexNowKey.optional(),
  INDEXNOW_ENDPOINT: postUrl.default("https://api.indexnow.org/indexnow"),
  BAIDU_PUSH_TOKEN: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, "must be the token Baidu's webmaster tools show (letters, digits, _ and -)")
    .optional(),
  BAIDU_PUSH_ENDPOINT: postUrl.default("http://data.zz.baidu.com/urls"),
  PUSH_GATHER_MS: integer(0, 600_000, "a whole number of milliseconds from 0 to 600000").default(3000),
  WECHAT_APP_ID: z
    .string()
    .trim()
    .regex(/^wx[0-9a-f]{16}$/, "must be an official account's AppID: wx and 16 hexadecimal digits, such as wx1234567890abcdef")
    .optional(),
  WECHAT_APP_SECRET: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{16,64}$/, "must be the official account's AppSecret (letters and digits)")
    .optional(),
  WECHAT_API_BASE: baseUrl.default("https://api.weixin.qq.com"),
  NODE_ENV: z.enum(["development", "production", "test"], "must be development, production or test").default("production"),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], "must be one of fatal, error, warn, info, debug, trace, silent")
    .default("info"),
});

/** The configuration table of docs/operations.md lists each. */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

export interface Config {
  port: number;
  host: string;
  /** Undefined starts the embedded content API. */
  apiBaseUrl?: string;
  databaseUrl: string;
  cache: {
    ttlMs: number;
    ttlOverrides: { prefix: string; ttlMs: number }[];
    staleMs: number;
    maxBytes: number;
  };
  upstreamTimeoutMs: number;
  reader: { dedupWindowMs: number; ratePerMin: number };
  /** 0: no limit (docs/behaviour.md#miss-budget). */
  missRatePerMin: number;
  /** Undefined: the embedded demo's own, or none for an external upstream. */
  classify?: ClassifyMenu[];
  /** Where the site's entry points lead, and x-default: one of `langs`. */
  lang: Lang;
  /** The site's languages, the first the content's own, unprefixed (docs/behaviour.md#languages). */
  langs: Lang[];
  /** Undefined: content comes in Chinese only. */
  contentLangParam?: string;
  homeScript: boolean;
  publicOrigin?: string;
  trustProxy?: false | number | string;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  dev: boolean;
  pageCache: boolean;
  /** 1 runs no cluster at all. */
  webConcurrency: number;
  images: {
    /** Beside the upstream's own. */
    hosts: string[];
    maxSourceBytes: number;
    cacheDir: string;
    cacheMaxBytes: number;
    /** The embedded media's SVGs always are. */
    allowSvg: boolean;
  };
  /** Empty: no purge endpoint. */
  purgeSecrets: PurgeSecret[];
  /** docs/behaviour.md#preview; `secrets` empty: no preview links. `param`: what the upstream reads as "show drafts". */
  preview: { secrets: PurgeSecret[]; param: string };
  /** Undefined: every instance keeps its own state. */
  redisUrl?: string;
  /** The internal listener; undefined: none. */
  metrics?: { port: number; host: string };
  seedContent: "demo" | "none";
  /** `refreshMs` 0: never read again. */
  search: { indexPath: string; refreshMs: number };
  /** docs/redirects.md; undefined: no redirect rules. */
  redirectsFile?: string;
  /** docs/behaviour.md#stopping */
  shutdown: { drainMs: number; graceMs: number };
  enquiries: EnquiryConfig;
  push: PushConfig;
  /** Undefined: nothing WeChat-specific (docs/behaviour.md#sharing-in-wechat). */
  wechat?: WechatConfig;
}

/** Telling search engines of changed pages (docs/behaviour.md#telling-search-engines); neither set: nothing is sent. */
export interface PushConfig {
  /** Set whenever an engine is. */
  publicOrigin?: string;
  indexNow?: { key: string; endpoint: string };
  baidu?: { token: string; endpoint: string };
  /** How long addresses are gathered into one request. */
  gatherMs: number;
}

export interface WechatConfig {
  appId: string;
  appSecret: string;
  apiBase: string;
}

/** The form secret a cluster's primary makes for its workers when FORM_SECRET is unset (one instance's alone). */
export const WORKERS_FORM_SECRET = "PORTAL_WORKERS_FORM_SECRET";

export interface EnquiryConfig {
  /** Undefined: a random one per start. */
  formSecret?: string;
  /** FORM_SECRET was set, so every instance has the same one (not one its primary made for its workers). */
  instancesShareFormSecret: boolean;
  ratePerHour: number;
  retentionDays: number;
  webhook?: { url: string; secrets: PurgeSecret[] };
  mail?: { smtpUrl: string; to: string[]; from: string };
}

export class ConfigError extends Error {}

/** Variables whose values are never shown, whatever they hold. */
const SECRET_NAME = /SECRET|PASSWORD|TOKEN|KEY/i;

/** Kept of a URL whose userinfo is hidden: punctuation, then a scheme with its slashes (`redis://`, `redis:/`, `postgres//`). */
const SHOWN_SCHEME = /^[^A-Za-z0-9]*(?:[A-Za-z][A-Za-z0-9+.-]*(?::\/+|\/\/+))?/;

/** `***` for all before the last `@` but the scheme: a password may hold `/`, `#`, `?` or `@`, a scheme be mistyped. */
function withoutUserinfo(text: string): string {
  const at = text.lastIndexOf("@");
  if (at === -1) return text;
  return `${SHOWN_SCHEME.exec(text)?.[0] ?? ""}***${text.slice(at)}`;
}

/** Every word holding an `@` cut to its scheme and what follows its last `@` (a driver's error, say). */
export function withoutCredentials(text: string): string {
  return text.replace(/\S*@\S*/g, withoutUserinfo);
}

export function shownValue(name: string, value: string | undefined): string {
  if (value === undefined) return "";
  if (SECRET_NAME.test(name)) return " (value not shown)";
  // The whole value as one: a password may hold a space.
  const safe = withoutUserinfo(value);
  return ` (got "${safe.length > 60 ? `${safe.slice(0, 60)}…` : safe}")`;
}

/** Throws a ConfigError, one line naming the first bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty variable counts as unset, as shells and service files often write them.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    const message = withoutCredentials(issue?.message ?? "is invalid");
    throw new ConfigError(`${name} ${message}${shownValue(name, present[name])}`.replace(/\s+/g, " "));
  }
  const e = parsed.data;
  const needs = (name: string, other: string) => {
    throw new ConfigError(`${name} needs ${other} as well`);
  };
  if (e.ENQUIRY_WEBHOOK_URL && !e.ENQUIRY_WEBHOOK_SECRET) needs("ENQUIRY_WEBHOOK_URL", "ENQUIRY_WEBHOOK_SECRET");
  if (e.SMTP_URL && !e.ENQUIRY_TO) needs("SMTP_URL", "ENQUIRY_TO");
  if (e.SMTP_URL && !e.ENQUIRY_FROM) needs("SMTP_URL", "ENQUIRY_FROM");
  // The addresses sent are absolute, and an engine checks them against the key's or the site's host.
  if (e.INDEXNOW_KEY && !e.PUBLIC_ORIGIN) needs("INDEXNOW_KEY", "PUBLIC_ORIGIN");
  if (e.BAIDU_PUSH_TOKEN && !e.PUBLIC_ORIGIN) needs("BAIDU_PUSH_TOKEN", "PUBLIC_ORIGIN");
  if (e.WECHAT_APP_ID && !e.WECHAT_APP_SECRET) needs("WECHAT_APP_ID", "WECHAT_APP_SECRET");
  if (e.WECHAT_APP_SECRET && !e.WECHAT_APP_ID) needs("WECHAT_APP_SECRET", "WECHAT_APP_ID");
  // Pages are signed for the address WeChat sees, and its JS interface safe domain names that host.
  if (e.WECHAT_APP_ID && !e.PUBLIC_ORIGIN) needs("WECHAT_APP_ID", "PUBLIC_ORIGIN");
  const langs = e.PORTAL_LANGS ?? [...DEFAULT_SITE_LANGS];
  const lang = e.PORTAL_LANG === undefined ? langs[0] : langs.find((one) => one === knownLangOf(e.PORTAL_LANG as string));
  if (!lang) {
    const choices = langs.length === 1 ? langs[0] : `${langs.slice(0, -1).join(", ")} or ${langs.at(-1)}`;
    throw new ConfigError(`PORTAL_LANG must be ${choices} (a language of PORTAL_LANGS)${shownValue("PORTAL_LANG", e.PORTAL_LANG)}`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    apiBaseUrl: e.API_BASE_URL,
    databaseUrl: e.DATABASE_URL,
    cache: {
      ttlMs: e.CACHE_TTL_MS,
      ttlOverrides: e.CACHE_TTL_OVERRIDES,
      staleMs: e.CACHE_STALE_MS,
      maxBytes: e.CACHE_MAX_MB * 1024 * 1024,
    },
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    reader: { dedupWindowMs: e.READER_DEDUP_WINDOW_MS, ratePerMin: e.READER_RATE_PER_MIN },
    missRatePerMin: e.MISS_RATE_PER_MIN,
    classify: e.PORTAL_CLASSIFY,
    lang,
    langs,
    contentLangParam: e.CONTENT_LANG_PARAM ?? (e.API_BASE_URL === undefined ? EMBEDDED_LANG_PARAM : undefined),
    homeScript: e.PORTAL_HOME_SCRIPT === "on",
    publicOrigin: e.PUBLIC_ORIGIN,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    dev: e.NODE_ENV === "development",
    pageCache: e.PAGE_CACHE === "on",
    webConcurrency: e.WEB_CONCURRENCY,
    images: {
      hosts: e.IMAGE_HOSTS,
      maxSourceBytes: e.IMAGE_MAX_MB * 1024 * 1024,
      cacheDir: e.IMAGE_CACHE_DIR,
      cacheMaxBytes: e.IMAGE_CACHE_MB * 1024 * 1024,
      allowSvg: e.IMAGE_ALLOW_SVG === "on",
    },
    purgeSecrets: e.PURGE_SECRET ?? [],
    preview: { secrets: e.PREVIEW_SECRET ?? [], param: e.PREVIEW_PARAM },
    redisUrl: e.REDIS_URL,
    metrics: e.METRICS_PORT === undefined ? undefined : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    seedContent: e.SEED_CONTENT,
    search: { indexPath: e.SEARCH_INDEX_PATH ?? searchIndexBeside(e.DATABASE_URL), refreshMs: e.SEARCH_REFRESH_MS },
    redirectsFile: e.REDIRECTS_FILE,
    shutdown: { drainMs: e.SHUTDOWN_DRAIN_MS, graceMs: e.SHUTDOWN_GRACE_MS },
    enquiries: {
      formSecret: e.FORM_SECRET ?? env[WORKERS_FORM_SECRET],
      instancesShareFormSecret: e.FORM_SECRET !== undefined,
      ratePerHour: e.ENQUIRY_RATE_PER_HOUR,
      retentionDays: e.ENQUIRY_RETENTION_DAYS,
      webhook:
        e.ENQUIRY_WEBHOOK_URL && e.ENQUIRY_WEBHOOK_SECRET ? { url: e.ENQUIRY_WEBHOOK_URL, secrets: e.ENQUIRY_WEBHOOK_SECRET } : undefined,
      mail: e.SMTP_URL && e.ENQUIRY_TO && e.ENQUIRY_FROM ? { smtpUrl: e.SMTP_URL, to: e.ENQUIRY_TO, from: e.ENQUIRY_FROM } : undefined,
    },
    push: {
      publicOrigin: e.PUBLIC_ORIGIN,
      indexNow: e.INDEXNOW_KEY ? { key: e.INDEXNOW_KEY, endpoint: e.INDEXNOW_ENDPOINT } : undefined,
      baidu: e.BAIDU_PUSH_TOKEN ? { token: e.BAIDU_PUSH_TOKEN, endpoint: e.BAIDU_PUSH_ENDPOINT } : undefined,
      gatherMs: e.PUSH_GATHER_MS,
    },
    wechat:
      e.WECHAT_APP_ID && e.WECHAT_APP_SECRET
        ? { appId: e.WECHAT_APP_ID, appSecret: e.WECHAT_APP_SECRET, apiBase: e.WECHAT_API_BASE }
        : undefined,
  };
}

function searchIndexBeside(databaseUrl: string): string {
  const sqlite = /^sqlite:(.+)$/.exec(databaseUrl)?.[1];
  return path.join(sqlite && sqlite !== ":memory:" ? path.dirname(sqlite) : "./data", "search.db");
}
