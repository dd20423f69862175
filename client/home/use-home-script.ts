/**
 * Runs the home html `useEval|` script once per content container, after hydration, as the exact
 * text the CSP allows by hash (docs/behaviour.md#home-page).
 */
import { type RefObject, useEffect } from "react";
import { homeScriptSource } from "../../shared/home-script.ts";

const done = new WeakSet<Element>();

export function useHomeScript(body: string | undefined, container: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = container.current;
    if (body === undefined || !element || done.has(element)) return;
    done.add(element);
    const script = document.createElement("script");
    script.textContent = homeScriptSource(body);
    document.body.append(script);
  }, [body, container]);
}
