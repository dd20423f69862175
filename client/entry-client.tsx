/**
 * Hydrates the server-rendered page with the state embedded in it, after loading the
 * current page's code and its language's strings (both preloaded by the page's head),
 * so the first client render matches the server HTML exactly. The root hydrates first
 * and the page's parts after it in small tasks (hydration/hydrate-apart.tsx); parts
 * hydrated only when needed get their code once that is done (hydration/later-part.tsx).
 * Then `<html data-hydrated="true">` says the page is interactive, for tests and anything
 * else that waits on it.
 *
 * The entry is an async module script (index.html): it runs as soon as it has arrived,
 * often while the parser is still at work, in a task of its own, instead of in the one
 * that ends parsing (where a deferred script runs, making it the longest task of a phone's
 * start-up), and React DOM sets itself up in a task of its own after it. It reads the page
 * once the parser is done and the stylesheet has arrived: unlike a deferred script, an
 * async one is not held back by a stylesheet still on its way, and hydrating then would
 * lay the whole page out unstyled first.
 */
import { startTransition } from "react";
import { type PageState, STATE_ELEMENT_ID } from "../shared/page-state.ts";
import { BASE_PATH, matchPage } from "../shared/routes.ts";
import { App } from "./app.tsx";
import { pageHydrated } from "./hydration/hydrate-apart.tsx";
import { loadLaterParts } from "./hydration/later-part.tsx";
import { replayLostPresses } from "./hydration/lost-press.ts";
import { loadMessages } from "./i18n/messages.ts";
import { loadPage } from "./pages/registry.ts";
import "./styles/index.css";

const parsed =
  document.readyState === "loading"
    ? new Promise<void>((resolve) => document.addEventListener("DOMContentLoaded", () => resolve(), { once: true }))
    : Promise.resolve();

/** Resolves once the document's stylesheets have loaded or failed (the window's load event being the bound). */
function stylesheetsLoaded(): Promise<void> {
  const pending = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter((link) => !link.sheet);
  if (pending.length === 0 || document.readyState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    let left = pending.length;
    const settled = () => {
      left -= 1;
      if (left === 0) resolve();
    };
    for (const link of pending) {
      link.addEventListener("load", settled, { once: true });
      link.addEventListener("error", settled, { once: true });
    }
    // A stylesheet that failed before this looked has no event left to fire; the window's load still comes.
    window.addEventListener("load", () => resolve(), { once: true });
  });
}

/** Resolves in a task of its own: what follows does not lengthen the task running now. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function hydrate(): Promise<void> {
  const path = window.location.pathname.slice(BASE_PATH.length);
  const match = matchPage(path, new URLSearchParams(window.location.search));
  // The page's code needs nothing of the document: it loads while the parser finishes.
  const pageCode = match && loadPage(match.route);
  // React DOM sets itself up (a third of the entry's start-up) when first imported: in a task after the one that
  // ran the entry, not in it. It is in the entry's own file, so nothing more is fetched.
  const reactDom = nextTask().then(() => import("react-dom/client"));
  await parsed;
  await stylesheetsLoaded();
  // Not in the task that ended parsing (DOMContentLoaded), which lays out the rest of the page.
  await nextTask();
  const state = JSON.parse(document.getElementById(STATE_ELEMENT_ID)?.textContent ?? "null") as PageState;
  replayLostPresses();
  const [{ hydrateRoot }] = await Promise.all([reactDom, pageCode, loadMessages(state.lang)]);
  // As a transition, React hydrates the root in 5 ms slices too, not in one task.
  startTransition(() => {
    hydrateRoot(document.getElementById("root") as HTMLElement, <App state={state} />, {
      onRecoverableError: (error) => console.error("hydration:", error),
    });
  });
  await pageHydrated;
  // A part whose code fails to arrive here keeps its server HTML, and tries again when it is needed.
  await loadLaterParts().catch(() => {});
  document.documentElement.dataset.hydrated = "true";
}

void hydrate();
