import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { CacheStatus } from "./swr-cache.ts";

/**
 * Answers a request before Express when it can: a cached answer (the cache status it
 * answered with), or the refusal of a client asking again before its Retry-After
 * ("refused", written once its hold ends); undefined leaves the request to Express.
 */
export type RequestFastPath = (req: IncomingMessage, res: ServerResponse) => CacheStatus | "refused" | undefined;

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
      if (answered !== "refused") record.cache = answered;
      return;
    }
    app(req, res);
  };
}
