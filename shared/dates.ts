/** Date display (docs/behaviour.md#dates). */
export function formatDateTime(value: unknown): string {
  if (typeof value !== "string" || !/^\d+$/.test(value)) return "";
  if (value.length === 8) return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
  if (value.length === 14) {
    return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)} ${value.slice(8, 10)}:${value.slice(10, 12)}`;
  }
  return "";
}

export function formatYearMonth(value: unknown): string {
  if (typeof value !== "string" || !/^\d{6}$/.test(value)) return "";
  return `${value.slice(0, 4)}-${value.slice(4, 6)}`;
}

export function toIsoDate(value: unknown): string | undefined {
  const shown = formatDateTime(value);
  if (!shown) return undefined;
  return shown.length === 10 ? shown : `${shown.replace(" ", "T")}:${String(value).slice(12, 14)}+08:00`;
}
