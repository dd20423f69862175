/** What an engine's answer means for the addresses it was sent (docs/behaviour.md#telling-search-engines). */
export type EngineAnswer =
  | { kind: "sent"; count: number; rejected?: number; remain?: number }
  /** Asked again later, with backoff. */
  | { kind: "retry"; reason: string; afterMs?: number }
  /** Never asked again: the engine refused these addresses for good. */
  | { kind: "drop"; reason: string }
  /** Baidu's daily quota is spent: nothing more until its next day. */
  | { kind: "quota"; reason: string };

/** Longer than any engine takes to answer, shorter than a claim's lease. */
export const ENGINE_TIMEOUT_MS = 30_000;

/** At most this much of an answer is read: enough for an engine's JSON, never a flood. */
const MAX_ANSWER_BYTES = 64 * 1024;

export async function answerText(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).toString("utf8").slice(0, MAX_ANSWER_BYTES);
}

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** `Retry-After` in seconds, as 429 and 503 answers may carry it. */
export function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get("retry-after");
  if (value === null || !/^\d{1,6}$/.test(value.trim())) return undefined;
  return Number(value) * 1000;
}
