/**
 * Writes a cached page straight to the Node response: used both before Express runs
 * (fresh hits, the hot path) and by the pages router (stale hits). The headers were
 * prepared once per entry; only freshness, coding and length are per response.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CachedPage } from "./page-cache.ts";

/** The best coding the client accepts: brotli, then gzip, else none. */
function codingOf(acceptEncoding: string | undefined): "br" | "gzip" | undefined {
  if (!acceptEncoding) return undefined;
  if (/\bbr\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding)) return "br";
  if (/\bgzip\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding)) return "gzip";
  return undefined;
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.slice(2);
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === bare;
  });
}

export function pageCacheControl(freshForMs: number, staleMs: number): string {
  const stale = Math.floor(staleMs / 1000);
  // Browsers revalidate every time (a cheap 304); shared caches may keep it as long as we would.
  return `public, max-age=0, s-maxage=${Math.max(0, Math.floor(freshForMs / 1000))}, stale-while-revalidate=${stale}, stale-if-error=${stale}`;
}

export function sendCachedPage(
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  options: { now: number; staleMs: number; cacheStatus: "HIT" | "STALE" },
): void {
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("Cache-Control", pageCacheControl(page.freshUntil - options.now, options.staleMs));
  res.setHeader("ETag", page.etag);
  res.setHeader("X-Page-Cache", options.cacheStatus);
  if (page.status === 200 && matchesEtag(req.headers["if-none-match"], page.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const coding = codingOf(req.headers["accept-encoding"]);
  const body = coding === "br" ? page.br : coding === "gzip" ? page.gzip : page.identity;
  if (coding) res.setHeader("Content-Encoding", coding);
  res.setHeader("Content-Length", body.length);
  res.statusCode = page.status;
  res.end(req.method === "HEAD" ? undefined : body);
}
