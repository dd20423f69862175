/**
 * Links between pages. `to` is a path under /portal ("/message/news/12"); the link
 * navigates on the client when JavaScript runs and is a plain href otherwise. When the
 * page's language came from the URL, links keep it.
 */
import type { AnchorHTMLAttributes } from "react";
import { Link } from "wouter";
import { usePageState } from "../data/page-state-context.tsx";

export function useLocalHref(): (to: string) => string {
  const { lang, langInUrl } = usePageState();
  return (to) => {
    if (!langInUrl) return to;
    const [path, hash = ""] = to.split("#");
    const url = new URL(path ?? "", "http://x");
    url.searchParams.set("lang", lang);
    return `${url.pathname}${url.search}${hash ? `#${hash}` : ""}`;
  };
}

export function PageLink({ to, ...rest }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">) {
  const localHref = useLocalHref();
  return <Link href={localHref(to)} {...rest} />;
}
