/** What the shell learns only in the browser; CSS alone lays out both widths, these only add behaviour. */
import { startTransition, useEffect, useMemo, useRef, useState } from "react";

/** docs/behaviour.md#constants: the same media query as the stylesheets. */
const NARROW_QUERY = "(max-width: 768px)";
const RESIZE_DEBOUNCE_MS = 200;

type MenuMode = "horizontal" | "vertical";

export function menuModeNow(): MenuMode {
  return window.matchMedia(NARROW_QUERY).matches ? "vertical" : "horizontal";
}

/** Null until mounted; a new mode renders as a transition, since nothing waits on it. */
export function useMenuMode(): MenuMode | null {
  const [mode, setMode] = useState<MenuMode | null>(null);
  useEffect(() => {
    const update = () => startTransition(() => setMode(menuModeNow()));
    update();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(update, RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener("resize", onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("resize", onResize);
    };
  }, []);
  return mode;
}

/** The first call at once, later ones folded into one trailing call with the latest value. */
export function useThrottled<T>(fn: (value: T) => void, ms: number): { call: (value: T) => void; cancel: () => void } {
  const state = useRef<{ last: number; timer?: ReturnType<typeof setTimeout>; value?: T }>({ last: Number.NEGATIVE_INFINITY });
  useEffect(() => () => clearTimeout(state.current.timer), []);
  return useMemo(() => {
    const s = state.current;
    const run = (value: T) => {
      s.timer = undefined;
      s.last = Date.now();
      fn(value);
    };
    return {
      call(value: T) {
        s.value = value;
        const wait = s.last + ms - Date.now();
        if (wait <= 0) {
          clearTimeout(s.timer);
          run(value);
        } else {
          s.timer ??= setTimeout(() => run(s.value as T), wait);
        }
      },
      cancel() {
        clearTimeout(s.timer);
        s.timer = undefined;
      },
    };
  }, [fn, ms]);
}
