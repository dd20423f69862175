/**
 * Waits on the page's animation frames, bounded: headless Chromium does not always run them
 * (a page it is not drawing gets none), and a frame that never comes must not hang a test.
 */
import type { Page } from "playwright-core";

/** Two frames (a change's layout, then what ran in the frame after it), or 1 s where none come. */
export const nextFrames = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
        setTimeout(resolve, 1000);
      }),
  );

/** Down to the footer a screen at a time, a frame (or 100 ms) at each, so every lazy image is asked for. */
export const scrollThroughPage = (page: Page) =>
  page.evaluate(async () => {
    const end = document.documentElement.scrollHeight;
    for (let y = 0; y < end; y += window.innerHeight) {
      window.scrollTo(0, y);
      await new Promise<void>((resolve) => {
        requestAnimationFrame(() => resolve());
        setTimeout(resolve, 100);
      });
    }
    window.scrollTo(0, end);
  });
