import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { CacheStatus } from "./swr-cache.ts";

/**
 * Answers before Express when it can (docs/behaviour.md#hot-path): its cache status, "refused", undefined for the next
 * fast path, or "express" for Express at once, past the other fast paths (a 410 rule's page must not be a cached one).
 */
export type RequestFastPath = (req: IncomingMessage, res: ServerResponse) => CacheStatus | "refused" | "express" | undefined;

/** The listener production serves: `follow` starts on every request, then the fast paths in turn, then `app`. */
export function fastPathsFirst(
  fastPaths: readonly RequestFastPath[],
  app: RequestListener,
  follow: (req: IncomingMessage, res: ServerResponse) => { cache?: CacheStatus },
): RequestListener {
  return (req, res) => {
    const record = follow(req, res);
    for (const fastPath of fastPaths) {
      const answered = fastPath(req, res);
      if (answered === undefined) continue;
      if (answered === "express") break;
      if (answered !== "refused") record.cache = answered;
      return;
    }
    app(req, res);
  };
}
