/** Links between pages: `to` is a path under /portal, in the page's language; a plain href without JavaScript. */
import type { AnchorHTMLAttributes } from "react";
import { Link } from "wouter";
import { langPath } from "../../shared/routes.ts";
import { usePageState } from "../data/page-state-context.tsx";

export function useLocalHref(): (to: string) => string {
  const { lang } = usePageState();
  return (to) => (to.startsWith("/") ? langPath(to, lang) : to);
}

export function PageLink({ to, ...rest }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">) {
  const localHref = useLocalHref();
  return <Link href={localHref(to)} {...rest} />;
}
