/**
 * A link to a home anchor (#product-list...). Without JavaScript it is a plain link to
 * /portal/index.html#anchor (the anchors' scroll-margin-top keeps them below the fixed
 * header). With it, on the home page it scrolls smoothly to the anchor; elsewhere it
 * navigates to the home page on the client and scrolls there once the page is shown.
 */
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
