/** The reader PUT body, validated strictly (docs/behaviour.md#reader-updates). */

import type { ReaderRecord } from "./entities.ts";
import { MAX_ID } from "./params.ts";

type ReaderBodyResult = { ok: true; reader: ReaderRecord } | { ok: false; error: string };

export function parseReaderBody(body: unknown): ReaderBodyResult {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, error: "body must be a JSON object {type, pid}" };
  }
  const extra = Object.keys(body).find((key) => key !== "type" && key !== "pid");
  if (extra !== undefined) return { ok: false, error: `body field ${extra.slice(0, 40)} is not allowed` };
  const { type, pid } = body as Record<string, unknown>;
  if (type !== 1 && type !== 2) return { ok: false, error: "type must be one of 1, 2" };
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid < 1 || pid > MAX_ID) {
    return { ok: false, error: `pid must be an integer from 1 to ${MAX_ID}` };
  }
  return { ok: true, reader: { type, pid } };
}
