/**
 * How many of the wide menu's items fit its row beside "More": measured in the browser from the
 * header's server HTML, before and after its tools hydrate, so nothing in the header ever overlaps
 * (docs/behaviour.md#the-shell). Until measured, and without JavaScript, the row wraps and hides
 * what does not fit (menu.css).
 */
import { type RefObject, useLayoutEffect, useState } from "react";
import { flushSync } from "react-dom";
import { menuModeNow } from "./use-layout.ts";

/** menu-fold.css has rules for this many items in the row; past it, the rest fold even if they would fit. */
export const MOST_ITEMS_IN_ROW = 12;
/** Every item fits: no "More". */
export const ALL_FIT = "all";
const ITEMS = "#site-menu > li";
const MORE = ".menu-more-toggle";

const widthOf = (element: Element | null) => element?.getBoundingClientRect().width ?? 0;

/** The value of the header's data-fit: how many items the row shows, or "all". */
export function fitOf(header: HTMLElement): string {
  const room = widthOf(header.querySelector(".site-nav"));
  const widths = [...header.querySelectorAll(ITEMS)].map(widthOf);
  const total = widths.reduce((sum, width) => sum + width, 0);
  if (total <= room && widths.length <= MOST_ITEMS_IN_ROW) return ALL_FIT;
  let used = widthOf(header.querySelector(MORE));
  let fit = 0;
  while (fit < Math.min(widths.length, MOST_ITEMS_IN_ROW) && used + (widths[fit] ?? 0) <= room) used += widths[fit++] ?? 0;
  return String(fit);
}

/** Measured again whenever the header's size, an item's size or the items themselves change (fonts, language, a page's new menu). */
export function useHeaderFit(header: RefObject<HTMLElement | null>): string | undefined {
  const [fit, setFit] = useState<string>();
  useLayoutEffect(() => {
    const root = header.current;
    if (!root) return;
    // Synchronous, so the row is right in the frame that changed it.
    const measure = () => {
      if (menuModeNow() === "horizontal") flushSync(() => setFit(fitOf(root)));
    };
    const sizes = new ResizeObserver(measure);
    const observeAll = () => {
      sizes.disconnect();
      sizes.observe(root);
      for (const element of root.querySelectorAll(`.site-nav, ${ITEMS}, ${MORE}`)) sizes.observe(element);
    };
    const changes = new MutationObserver(() => {
      observeAll();
      measure();
    });
    changes.observe(root, { childList: true, subtree: true, characterData: true });
    observeAll();
    return () => {
      sizes.disconnect();
      changes.disconnect();
    };
  }, [header]);
  return fit;
}
