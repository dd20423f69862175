/**
 * What a visitor sees of the header: every item's box (the logo, the name, each top menu item,
 * "More", the language switch, the search button, the narrow menu's button) as far as it shows,
 * and what is wrong with them: two items drawn over each other, one cut off or outside the window.
 */
import type { Page } from "playwright-core";

export interface HeaderLayout {
  /** Each problem named by the two items, or the item, and where. */
  problems: string[];
  /** The top menu's items shown in the row, and those "More" lists, by index. */
  inRow: number[];
  inMore: number[];
  /** How far the search button's outer edge is from the window's inline end. */
  searchMargin: number;
}

/** Runs in the page. */
function measureHeader(): HeaderLayout {
  const TOLERANCE = 0.5;
  const named: [string, Element][] = [];
  const add = (selector: string, name: (element: Element, index: number) => string) =>
    document.querySelectorAll(selector).forEach((element, index) => {
      named.push([name(element, index), element]);
    });
  add(".brand-logo", () => "logo");
  add(".brand-name", () => "site name");
  add("#site-menu > li", (element, index) => `menu item ${index + 1} "${element.querySelector(".menu-link")?.textContent?.trim()}"`);
  add(".menu-more-toggle", () => "More");
  add(".lang-switch", () => "language switch");
  add(".header-search-button", () => "search button");
  add(".nav-toggle", () => "menu button");

  /** The part of the element its clipping ancestors let show, or null when none does. */
  const shownBox = (element: Element) => {
    if (!element.checkVisibility({ visibilityProperty: true })) return null;
    const box = element.getBoundingClientRect();
    // Hidden for the eye, there for screen readers (the name beside the logo below 1025 px).
    if (box.width <= 1 || box.height <= 1) return null;
    let [left, top, right, bottom] = [box.left, box.top, box.right, box.bottom];
    for (let up = element.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const clip = up.getBoundingClientRect();
      [left, top, right, bottom] = [
        Math.max(left, clip.left),
        Math.max(top, clip.top),
        Math.min(right, clip.right),
        Math.min(bottom, clip.bottom),
      ];
    }
    if (right - left <= TOLERANCE || bottom - top <= TOLERANCE) return null;
    return {
      box,
      cut: left - box.left > TOLERANCE || box.right - right > TOLERANCE || top - box.top > TOLERANCE || box.bottom - bottom > TOLERANCE,
    };
  };

  const problems: string[] = [];
  const shown: [string, DOMRect][] = [];
  for (const [name, element] of named) {
    const seen = shownBox(element);
    if (!seen) continue;
    const { box, cut } = seen;
    if (cut) problems.push(`${name} is cut off`);
    if (box.left < -TOLERANCE || box.top < -TOLERANCE || box.right > innerWidth + TOLERANCE || box.bottom > innerHeight + TOLERANCE)
      problems.push(`${name} is outside the window (${Math.round(box.left)} to ${Math.round(box.right)} of ${innerWidth})`);
    shown.push([name, box]);
  }
  for (const [i, [a, boxA]] of shown.entries()) {
    for (const [b, boxB] of shown.slice(i + 1)) {
      const across = Math.min(boxA.right, boxB.right) - Math.max(boxA.left, boxB.left);
      const down = Math.min(boxA.bottom, boxB.bottom) - Math.max(boxA.top, boxB.top);
      if (across > TOLERANCE && down > TOLERANCE) problems.push(`${a} and ${b} overlap by ${across.toFixed(1)} px`);
    }
  }

  const items = [...document.querySelectorAll("#site-menu > li")];
  const inRow = items.flatMap((item, index) => (shownBox(item) ? [index] : []));
  const inMore = [...document.querySelectorAll(".menu-more-list > li")].flatMap((item, index) =>
    getComputedStyle(item).display !== "none" && document.querySelector(".menu-more")?.checkVisibility({ visibilityProperty: true })
      ? [index]
      : [],
  );
  const search = document.querySelector(".header-search-button")?.getBoundingClientRect();
  const rtl = document.documentElement.dir === "rtl";
  const searchMargin = search ? Math.round(rtl ? search.left : innerWidth - search.right) : -1;
  return { problems, inRow, inMore, searchMargin };
}

export const headerLayout = (page: Page): Promise<HeaderLayout> => page.evaluate(measureHeader);
