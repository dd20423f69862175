/** A page's heading in the browser, by the rule the server's <title> follows (client/page-title.ts). */
import { useSWRConfig } from "swr";
import { pageTitle } from "../../shared/page-titles.ts";
import type { PageRoute, RouteMatch } from "../../shared/routes.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { useKeyInLang } from "../data/use-api.ts";
import { pageHeading, type ReadPayload } from "../page-title.ts";

export function usePageHeading(match: RouteMatch): string {
  const { cache } = useSWRConfig();
  const { fallback, lang } = usePageState();
  const inLang = useKeyInLang();
  const read: ReadPayload = <T>(key: string) => (cache.get(inLang(key))?.data ?? fallback[key] ?? undefined) as T | undefined;
  return pageHeading(match, read, lang);
}

export function usePageName(route: PageRoute): string {
  return pageTitle(route, usePageState().lang);
}
