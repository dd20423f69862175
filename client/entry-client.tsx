/**
 * Hydrates the server-rendered page with the state embedded in it, after loading the
 * current page's code and its language's strings, so the first client render matches
 * the server HTML exactly.
 */
import { hydrateRoot } from "react-dom/client";
import { type PageState, STATE_ELEMENT_ID } from "../shared/page-state.ts";
import { BASE_PATH, matchPage } from "../shared/routes.ts";
import { App } from "./app.tsx";
import { loadMessages } from "./i18n/messages.ts";
import { loadPage } from "./pages/registry.ts";
import "./styles/index.css";

async function hydrate(): Promise<void> {
  const state = JSON.parse(document.getElementById(STATE_ELEMENT_ID)?.textContent ?? "null") as PageState;
  const path = window.location.pathname.slice(BASE_PATH.length);
  const match = matchPage(path, new URLSearchParams(window.location.search));
  await Promise.all([match && loadPage(match.route.id), loadMessages(state.lang)]);
  hydrateRoot(document.getElementById("root") as HTMLElement, <App state={state} />, {
    onRecoverableError: (error) => console.error("hydration:", error),
  });
  // Lets tests (and anything else) know the page is interactive.
  queueMicrotask(() => {
    document.documentElement.dataset.hydrated = "true";
  });
}

void hydrate();
