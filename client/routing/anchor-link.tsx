/** A link to a home anchor: a plain link without JavaScript; with it, a smooth scroll, after a navigation home if need be. */
import type { AnchorHTMLAttributes } from "react";
import { useLocation } from "wouter";
import { HOME_PATH, splitLangPath } from "../../shared/routes.ts";
import { PageLink } from "./page-link.tsx";
import { scrollToAnchorWhenReady, setPendingAnchor } from "./scroll.ts";

export function AnchorLink({ anchor, onClick, ...rest }: { anchor: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">) {
  const [location] = useLocation();
  return (
    <PageLink
      to={`${HOME_PATH}#${anchor}`}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented) return;
        if (splitLangPath(location).path === HOME_PATH) {
          event.preventDefault();
          history.pushState(history.state, "", `#${anchor}`);
          scrollToAnchorWhenReady(anchor);
        } else {
          setPendingAnchor(anchor);
        }
      }}
      {...rest}
    />
  );
}
