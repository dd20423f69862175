/**
 * Page URLs with a query, and navigation to them. Paths are relative to /portal, as
 * PageLink takes them; the language kept in the URL is added by `useLocalHref`.
 */
import { useLocation } from "wouter";
import { usePageState } from "../data/page-state-context.tsx";
import { useLocalHref } from "../routing/page-link.tsx";

export type QueryValues = Record<string, string | number | undefined>;

/** `path?name=value…`, leaving out empty values; commas stay readable in id lists. */
export function withQuery(path: string, values: QueryValues): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== "") search.set(name, String(value));
  const text = search.toString().replace(/%2C/gi, ",");
  return text ? `${path}?${text}` : path;
}

/** Client navigation to a path under /portal (keeping the URL's language, if any). */
export function useGo(): (to: string) => void {
  const [, navigate] = useLocation();
  const localHref = useLocalHref();
  return (to) => navigate(localHref(to));
}

/** Hidden inputs a GET form needs so its result keeps what the links keep (the URL's language). */
export function useFormLang(): { name: string; value: string } | undefined {
  const { lang, langInUrl } = usePageState();
  return langInUrl ? { name: "lang", value: lang } : undefined;
}
