/**
 * Navigation to page URLs with a query (shared/with-query.ts writes them). Paths are
 * relative to /portal, as PageLink takes them; the language kept in the URL is added by
 * `useLocalHref`.
 */
import { useLocation } from "wouter";
import { usePageState } from "../data/page-state-context.tsx";
import { useLocalHref } from "../routing/page-link.tsx";

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
