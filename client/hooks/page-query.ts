/**
 * Navigation to page URLs with a query (shared/with-query.ts writes them). Paths are
 * relative to /portal, as PageLink takes them; the page's language prefix is added by
 * `useLocalHref`.
 */
import { useLocation } from "wouter";
import { BASE_PATH } from "../../shared/routes.ts";
import { useLocalHref } from "../routing/page-link.tsx";

/** Client navigation to a path under /portal, in the page's language. */
export function useGo(): (to: string) => void {
  const [, navigate] = useLocation();
  const localHref = useLocalHref();
  return (to) => navigate(localHref(to));
}

/** A GET form's action for a path under /portal: the page's address in its language. */
export function useFormAction(): (path: string) => string {
  const localHref = useLocalHref();
  return (path) => BASE_PATH + localHref(path);
}
