import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { CacheStatus } from "./swr-cache.ts";

/** Answers before Express when it can (docs/behaviour.md#hot-path): its cache status, "refused", or undefined for Express. */
export type RequestFastPath = (req: IncomingMessage, res: ServerResponse) => CacheStatus | "refused" | undefined;

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
  const answered = (paths: readonly RequestFastPath[], req: IncomingMessage, res: ServerResponse, record: { cache?: CacheStatus }) => {
    for (const fastPath of paths) {
      const status = fastPath(req, res);
      if (status === undefined) continue;
      if (status !== "refused") record.cache = status;
      return true;
    }
    return false;
  };
  return (req, res) => {
    const record = follow(req, res);
    if (answered(answersFirst, req, res, record)) return;
    if (!bypassesCaches(req) && answered(fastPaths, req, res, record)) return;
    app(req, res);
  };
}

interface FastPathOptions {
  bypassesCaches?: (req: IncomingMessage) => boolean;
  answersFirst?: readonly RequestFastPath[];
}
