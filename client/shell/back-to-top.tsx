/** The back-to-top button (docs/behaviour.md#the-shell): shown after 200 px of scroll; smooth unless reduced motion is preferred. */
import { useEffect, useState } from "react";
import { useT } from "../i18n/use-t.ts";
import { scrollToTop } from "../routing/scroll.ts";
import { ArrowUpIcon } from "./icons.tsx";

const BACK_TO_TOP_AFTER_PX = 200;

export function BackToTop({ id }: { id: string }) {
  const t = useT();
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      setVisible(window.scrollY > BACK_TO_TOP_AFTER_PX);
    };
    const onScroll = () => {
      frame ||= requestAnimationFrame(update);
    };
    update();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", onScroll);
    };
  }, []);

  return (
    <button
      id={id}
      type="button"
      className={visible ? "back-to-top is-visible" : "back-to-top"}
      aria-label={t("shell.backToTop")}
      title={t("shell.backToTop")}
      onClick={(event) => {
        scrollToTop();
        // A keyboard user goes on from the top of the page rather than from a button that disappears.
        if (event.detail === 0) document.querySelector<HTMLElement>(".skip-link")?.focus({ preventScroll: true });
      }}
    >
      <ArrowUpIcon />
    </button>
  );
}
