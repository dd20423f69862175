/**
 * Runs the home html `useEval|` script (docs/behaviour.md#home-page): once the page has hydrated,
 * a script element whose text is exactly `homeScriptSource(body)` is appended to the
 * body; the server's Content-Security-Policy allows that text by its hash. It runs once
 * per content container: StrictMode's second effect and later renders find the
 * container already done; a new container (coming back to the home page) gets its run.
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
