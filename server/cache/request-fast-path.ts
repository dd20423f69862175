import type { IncomingMessage, ServerResponse } from "node:http";
import type { CacheStatus } from "./swr-cache.ts";

/**
 * Answers a request before Express when it can: a cached answer (the cache status it
 * answered with), or the refusal of a client asking again before its Retry-After
 * ("refused", written once its hold ends); undefined leaves the request to Express.
 */
export type RequestFastPath = (req: IncomingMessage, res: ServerResponse) => CacheStatus | "refused" | undefined;
