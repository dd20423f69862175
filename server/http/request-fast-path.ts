import type { IncomingMessage, ServerResponse } from "node:http";
import type { CacheStatus } from "../cache/swr-cache.ts";

/**
 * Answers a request before Express when it can (a cached answer): the cache status it
 * answered with, or undefined to leave the request to Express.
 */
export type RequestFastPath = (req: IncomingMessage, res: ServerResponse) => CacheStatus | undefined;
