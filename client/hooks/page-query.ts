/** Navigation to paths under /portal, in the page's language. */
import { useLocation } from "wouter";
import { BASE_PATH } from "../../shared/routes.ts";
import { useLocalHref } from "../routing/page-link.tsx";

export function useGo(): (to: string) => void {
  const [, navigate] = useLocation();
  const localHref = useLocalHref();
  return (to) => navigate(localHref(to));
}

export function useFormAction(): (path: string) => string {
  const localHref = useLocalHref();
  return (path) => BASE_PATH + localHref(path);
}
