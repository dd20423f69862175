/**
 * Upstream values as a page may render them, whatever JSON type they came as.
 * docs/behaviour.md#entities says which fields are strings, numbers and lists, but an upstream may send
 * anything: React joins an array into the page and throws on an object, and String() or
 * a template literal throws on an object whose `toString` is not a function. Every
 * upstream value a page renders as text, a link or a list goes through one of these.
 */

/** The items of a list payload: anything but an array of objects reads as empty. */
export function itemsOf<T>(value: unknown, max = Number.POSITIVE_INFINITY): T[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is T => item !== null && typeof item === "object" && !Array.isArray(item)).slice(0, max);
}

/** The items of a paged payload. */
export function pagedItemsOf<T>(value: unknown, max?: number): T[] {
  return itemsOf<T>(value !== null && typeof value === "object" ? (value as { pageDataList?: unknown }).pageDataList : undefined, max);
}

/** Text to show: a string as it is, a finite number as its digits, anything else as nothing. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  return typeof value === "number" && Number.isFinite(value) ? String(value) : "";
}

/** A count or total: a whole number of at least 0, anything else 0. */
export function countOf(value: unknown): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

export const isId = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0;

/**
 * A content link (a slide's, a partner's, a QR code's) as the page may render it: an
 * http or https URL, or a relative one. Anything else (javascript:, data:, a scheme
 * hidden behind spaces or tabs, which browsers ignore) reads as no link, and the item
 * shows as plain content. The browser's own URL parser decides, so it sees what a click
 * would.
 */
export function linkOf(value: unknown): string {
  const url = textOf(value).trim();
  if (!url) return "";
  try {
    return /^https?:$/.test(new URL(url, "http://relative.invalid/").protocol) ? url : "";
  } catch {
    return "";
  }
}

/** The entries of an id-and-name list (job types, job addresses): entries without a valid id are dropped, names are text. */
export function namedItemsOf(value: unknown): { id: number; name: string }[] {
  return itemsOf<{ id?: unknown; name?: unknown }>(value).flatMap((item) =>
    isId(item.id) ? [{ id: item.id, name: textOf(item.name) }] : [],
  );
}
