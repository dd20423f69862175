import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { CacheStatus } from "./swr-cache.ts";

/**
 * Answers before Express when it can (docs/behaviour.md#hot-path): its cache status, "refused", undefined for the next
 * fast path, or "express" for Express at once, past the other fast paths (a 410 rule's page must not be a cached one).
 */
export type RequestFastPath = (req: IncomingMessage, res: ServerResponse) => CacheStatus | "refused" | "express" | undefined;

/**
 * The listener production serves: `follow` starts on every request, then the fast paths in turn, then `app`.
 * `answersFirst` (the redirect rules) hold no cached answer and run for every request; a request
 * `bypassesCaches` says is not the visitors' (a preview) then goes to `app` past every cached answer.
 */
export function fastPathsFirst(
  fastPaths: readonly RequestFastPath[],
  app: RequestListener,
  follow: (req: IncomingMessage, res: ServerResponse) => { cache?: CacheStatus },
  { bypassesCaches = () => false, answersFirst = [] }: FastPathOptions = {},
): RequestListener {
  /** "answered", "express" (to Express past the rest), or "next" when none of them answered. */
  const outcomeOf = (paths: readonly RequestFastPath[], req: IncomingMessage, res: ServerResponse, record: { cache?: CacheStatus }) => {
    for (const fastPath of paths) {
      const status = fastPath(req, res);
      if (status === undefined) continue;
      if (status === "express") return "express";
      if (status !== "refused") record.cache = status;
      return "answered";
    }
    return "next";
  };
  return (req, res) => {
    const record = follow(req, res);
    const first = outcomeOf(answersFirst, req, res, record);
    if (first === "answered") return;
    if (first === "next" && !bypassesCaches(req) && outcomeOf(fastPaths, req, res, record) === "answered") return;
    app(req, res);
  };
}

interface FastPathOptions {
  bypassesCaches?: (req: IncomingMessage) => boolean;
  answersFirst?: readonly RequestFastPath[];
}
