/** Small pieces the home page's sections share: tolerant data access, state rendering, template filling. */
import type { ReactNode } from "react";
import type { SiteConfig } from "../../shared/entities.ts";
import type { ApiResult } from "../data/use-api.ts";
import { ErrorState, LoadingState } from "../shell/page-states.tsx";

/** The items of a list payload, whatever the upstream sent: anything but an array of objects reads as empty. */
export function itemsOf<T>(value: unknown, max = Number.POSITIVE_INFINITY): T[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is T => item !== null && typeof item === "object").slice(0, max);
}

/** The items of a paged payload. */
export function pagedItemsOf<T>(value: unknown, max?: number): T[] {
  return itemsOf<T>((value as { pageDataList?: unknown } | undefined)?.pageDataList, max);
}

export const textOf = (value: unknown): string => (typeof value === "string" ? value : "");

/**
 * A content link (a slide's, a partner's) as the page may render it: an http or https
 * URL, or a relative one. Anything else (javascript:, data:, a scheme hidden behind
 * spaces or tabs, which browsers ignore) reads as no link, and the item shows as plain
 * content. The browser's own URL parser decides, so it sees what a click would.
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

export const isId = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0;

/** A section's body by the state of its call: error (with retry), loading, or the data. */
export function renderResult<T>(result: ApiResult<T>, render: (data: T) => ReactNode): ReactNode {
  if (result.error) return <ErrorState error={result.error} onRetry={result.retry} />;
  if (result.data === undefined) return result.isLoading ? <LoadingState /> : null;
  return render(result.data);
}

/** Layout mode 2 (the second number of themePortal) is the custom home; anything else is the default one. */
export function isCustomLayout(config: SiteConfig | undefined): boolean {
  return textOf(config?.themePortal).split(",")[1]?.trim() === "2";
}
