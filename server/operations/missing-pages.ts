// The missing-pages log (docs/behaviour.md#missing-pages): not-found pages (404, 410) and catch-all redirects home,
// counted by path at the end of every answer, in a fixed number of counters; shared through Redis when there is one.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import type { SharedTier } from "../redis/redis-connection.ts";
import { localMissingPagesStore } from "./missing-pages-store.ts";
import { isPagePath, missingPathOf, referrerOriginOf } from "./missing-path.ts";
import { sharedMissingPagesStore } from "./shared-missing-pages.ts";

/** Paths counted at once: past them a path asked for once never gets in, nor pushes one out (see heavy-hitters.ts). */
export const MISSING_PAGES_CAPACITY = 1024;
/** Paths `GET /not-found` lists. */
export const MISSING_PAGES_LISTED = 100;

export type MissingStatus = "404" | "410" | "302";

export interface MissingPage {
  path: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
  referrer: string | null;
}

export interface MissingPagesLog {
  /** Says this answer is the catch-all redirect to the home page (other redirects home are not missing pages). */
  markCatchAll(res: ServerResponse): void;
  /** Called as every answer ends, fast path included, with the URL as it arrived. */
  observe(url: string, req: IncomingMessage, res: ServerResponse): void;
  /** The most requested, most first (`GET /not-found`'s). */
  top(): Promise<MissingPage[]>;
  /** The `n` most requested, and whether they are all instances' counts (Redis answered) or this one's. */
  list(n: number): Promise<{ pages: MissingPage[]; shared: boolean }>;
  /** This instance's answers counted, by status (the metric). */
  totals(): Record<MissingStatus, number>;
  close(): Promise<void>;
}

function statusOf(req: IncomingMessage, res: ServerResponse, catchAll: WeakSet<ServerResponse>): MissingStatus | undefined {
  if (req.method !== "GET" && req.method !== "HEAD") return undefined;
  const status = res.statusCode;
  if (status === 302) return catchAll.has(res) ? "302" : undefined;
  if (status !== 404 && status !== 410) return undefined;
  // A page's; an error answer (text or JSON) is not. A cached page the fast path sent has no header to read back.
  const type = res.getHeader("content-type");
  if (type !== undefined && !String(type).startsWith("text/html")) return undefined;
  return status === 404 ? "404" : "410";
}

interface MissingPagesDeps {
  /** Redis shared by all instances; undefined: this instance's counts alone. */
  tier: SharedTier | undefined;
  now?: () => number;
  capacity?: number;
}

export function createMissingPages({ tier, now = Date.now, capacity = MISSING_PAGES_CAPACITY }: MissingPagesDeps): MissingPagesLog {
  const local = localMissingPagesStore(capacity);
  const store = tier ? sharedMissingPagesStore(tier, local, { capacity }) : local;
  const catchAll = new WeakSet<ServerResponse>();
  const totals: Record<MissingStatus, number> = { "404": 0, "410": 0, "302": 0 };
  return {
    markCatchAll: (res) => catchAll.add(res),
    observe(url, req, res) {
      const status = statusOf(req, res, catchAll);
      if (!status) return;
      const path = missingPathOf(url);
      if (path === undefined || !isPagePath(path)) return;
      totals[status]++;
      const at = now();
      store.note(path, { firstSeen: at, lastSeen: at, referrer: referrerOriginOf(req.headers.referer) });
    },
    async list(n) {
      const { entries, shared } = await store.top(n);
      const pages = entries.map(({ key, count, meta }) => ({
        path: key,
        count,
        firstSeen: new Date(meta.firstSeen).toISOString(),
        lastSeen: new Date(meta.lastSeen).toISOString(),
        referrer: meta.referrer,
      }));
      return { pages, shared };
    },
    async top() {
      return (await this.list(MISSING_PAGES_LISTED)).pages;
    },
    totals: () => ({ ...totals }),
    close: () => store.close(),
  };
}

/** Mounted just before the catch-all redirect home, so its answers are counted and no other redirect's. */
export function countAsMissing(log: Pick<MissingPagesLog, "markCatchAll">): RequestHandler {
  return (_req, res, next) => {
    log.markCatchAll(res);
    next();
  };
}
