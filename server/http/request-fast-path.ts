import type { IncomingMessage, ServerResponse } from "node:http";

/** Answers a request before Express when it can (a fresh cache hit); false leaves it to Express. */
export type RequestFastPath = (req: IncomingMessage, res: ServerResponse) => boolean;
