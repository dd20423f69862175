import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { CacheStatus } from "./swr-cache.ts";

/** Answers before Express when it can (docs/behaviour.md#hot-path): its cache status, "refused", or undefined for Express. */
export type RequestFastPath = (req: IncomingMessage, res: ServerResponse) => CacheStatus | "refused" | undefined;

/**
 * The listener production serves: `follow` starts on every request, then the fast paths in turn, then `app`.
 * A request `bypassesCaches` says is not the visitors' (a preview) goes to `app` past every cached answer.
 */
export function fastPathsFirst(
  fastPaths: readonly RequestFastPath[],
  app: RequestListener,
  follow: (req: IncomingMessage, res: ServerResponse) => { cache?: CacheStatus },
  bypassesCaches: (req: IncomingMessage) => boolean = () => false,
): RequestListener {
  return (req, res) => {
    const record = follow(req, res);
    if (bypassesCaches(req)) {
      app(req, res);
      return;
    }
    for (const fastPath of fastPaths) {
      const answered = fastPath(req, res);
      if (answered === undefined) continue;
      if (answered !== "refused") record.cache = answered;
      return;
    }
    app(req, res);
  };
}
