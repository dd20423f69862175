/** Keeps document.title right after client navigation (the server wrote the first one). */
import { useEffect } from "react";
import { useSWRConfig } from "swr";
import { detailKey } from "../../shared/data-keys.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { useApi, useKeyInLang } from "../data/use-api.ts";
import { useT } from "../i18n/use-t.ts";
import { useRouteMatch } from "../page-switch.tsx";
import { documentTitle, type ReadPayload } from "../page-title.ts";

export function DocumentTitle() {
  const t = useT();
  const { match } = useRouteMatch();
  const { cache, fallback } = useSWRConfig();
  // The page reads the same key, so nothing more is fetched: this only re-renders when it arrives.
  const { notFound } = useApi(match ? (detailKey(match) ?? null) : null, { detail: true });
  const inLang = useKeyInLang();
  const read: ReadPayload = <T,>(key: string) => (cache.get(inLang(key))?.data ?? fallback[inLang(key)] ?? undefined) as T | undefined;
  const title = documentTitle(match, read, t, usePageState().lang, notFound);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
