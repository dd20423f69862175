/**
 * Date display rules (docs/behaviour.md#dates): an 8-digit string shows as
 * YYYY-MM-DD, a 14-digit one as YYYY-MM-DD HH:mm, anything else as empty.
 */
export function formatDateTime(value: unknown): string {
  if (typeof value !== "string" || !/^\d+$/.test(value)) return "";
  if (value.length === 8) return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
  if (value.length === 14) {
    return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)} ${value.slice(8, 10)}:${value.slice(10, 12)}`;
  }
  return "";
}

/** A milestone's 6-digit yyyymm shows as YYYY-MM; anything else as empty. */
export function formatYearMonth(value: unknown): string {
  if (typeof value !== "string" || !/^\d{6}$/.test(value)) return "";
  return `${value.slice(0, 4)}-${value.slice(4, 6)}`;
}

/** ISO 8601 (for machine-readable dates) of a yyyymmdd[hhmmss] string, or undefined. */
export function toIsoDate(value: unknown): string | undefined {
  const shown = formatDateTime(value);
  if (!shown) return undefined;
  return shown.length === 10 ? shown : `${shown.replace(" ", "T")}:${String(value).slice(12, 14)}+08:00`;
}
