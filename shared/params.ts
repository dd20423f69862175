/** Parsing of the API calls' values (docs/behaviour.md#bad-input): the value, `undefined` for absent, or an error. */

export const MAX_ID = Number.MAX_SAFE_INTEGER; // 2^53 - 1
export const MAX_PAGE_INDEX = 100_000;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export type ParamResult<T> = { ok: true; value: T | undefined } | { ok: false; error: string };

const ok = <T>(value: T | undefined): ParamResult<T> => ({ ok: true, value });
const fail = <T>(error: string): ParamResult<T> => ({ ok: false, error });

function parseDigits(raw: string, min: number, max: number): number | undefined {
  if (!/^(0|[1-9]\d*)$/.test(raw) || raw.length > 16) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

export function parseIntegerParam(name: string, raw: string | undefined, min: number, max: number): ParamResult<number> {
  if (raw === undefined || raw === "") return ok(undefined);
  const n = parseDigits(raw, min, max);
  return n === undefined ? fail(`${name} must be an integer from ${min} to ${max}`) : ok(n);
}

export function parseId(name: string, raw: string | undefined): ParamResult<number> {
  return parseIntegerParam(name, raw, 1, MAX_ID);
}

/** Sorted and de-duplicated so equal sets share a key. */
export function parseIdList(name: string, raw: string | undefined): ParamResult<number[]> {
  if (raw === undefined || raw === "") return ok(undefined);
  const parts = raw.split(",");
  if (parts.length > 1000) return fail(`${name} lists too many ids`);
  const ids: number[] = [];
  for (const part of parts) {
    const n = parseDigits(part, 1, MAX_ID);
    if (n === undefined) return fail(`${name} must be ids (integers from 1 to ${MAX_ID}) joined by commas`);
    ids.push(n);
  }
  return ok([...new Set(ids)].sort((a, b) => a - b));
}

export function parseOneOf<T extends number>(name: string, raw: string | undefined, allowed: readonly T[]): ParamResult<T> {
  if (raw === undefined || raw === "") return ok(undefined);
  const n = parseDigits(raw, 0, MAX_ID);
  return n !== undefined && (allowed as readonly number[]).includes(n) ? ok(n as T) : fail(`${name} must be one of ${allowed.join(", ")}`);
}
