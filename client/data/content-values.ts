/**
 * Upstream values as a page may render them, whatever JSON type they came as: React throws on
 * an object, so every upstream value a page renders goes through one of these.
 */

export function itemsOf<T>(value: unknown, max = Number.POSITIVE_INFINITY): T[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is T => item !== null && typeof item === "object" && !Array.isArray(item)).slice(0, max);
}

export function pagedItemsOf<T>(value: unknown, max?: number): T[] {
  return itemsOf<T>(value !== null && typeof value === "object" ? (value as { pageDataList?: unknown }).pageDataList : undefined, max);
}

/** A string as it is, a finite number as its digits, anything else as nothing. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  return typeof value === "number" && Number.isFinite(value) ? String(value) : "";
}

export function countOf(value: unknown): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

export const isId = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0;

/** An http(s) or relative URL, as the browser's own URL parser reads it; anything else is no link. */
export function linkOf(value: unknown): string {
  const url = textOf(value).trim();
  if (!url) return "";
  try {
    return /^https?:$/.test(new URL(url, "http://relative.invalid/").protocol) ? url : "";
  } catch {
    return "";
  }
}

export function namedItemsOf(value: unknown): { id: number; name: string }[] {
  return itemsOf<{ id?: unknown; name?: unknown }>(value).flatMap((item) =>
    isId(item.id) ? [{ id: item.id, name: textOf(item.name) }] : [],
  );
}
