/**
 * Hydrates the server-rendered page once its code, strings and stylesheet are in, then sets
 * `<html data-hydrated="true">` (docs/behaviour.md#start-up-in-the-browser).
 */

import { startTransition } from "react";
import { type PageState, STATE_ELEMENT_ID } from "../shared/page-state.ts";
import { BASE_PATH, matchPage } from "../shared/routes.ts";
import { setSiteLangs } from "../shared/site-langs.ts";
import { App } from "./app.tsx";
import { readPreviewData } from "./data/fetch-payload.ts";
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

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function hydrate(): Promise<void> {
  const path = window.location.pathname.slice(BASE_PATH.length);
  // Read with the two default languages, before the page's state (and its list of languages) is parsed.
  const early = matchPage(path, new URLSearchParams(window.location.search));
  const earlyCode = early && loadPage(early.route);
  // React DOM sets itself up when first imported: in a task after the one that ran the entry.
  const reactDom = nextTask().then(() => import("react-dom/client"));
  await parsed;
  await stylesheetsLoaded();
  // Not in the task that ended parsing (DOMContentLoaded), which lays out the rest of the page.
  await nextTask();
  const state = JSON.parse(document.getElementById(STATE_ELEMENT_ID)?.textContent ?? "null") as PageState;
  setSiteLangs(state.config.langs);
  const match = state.config.langs ? matchPage(path, new URLSearchParams(window.location.search)) : early;
  const pageCode = match && match.route !== early?.route ? loadPage(match.route) : earlyCode;
  if (state.preview) readPreviewData();
  replayLostPresses();
  const [{ hydrateRoot }] = await Promise.all([reactDom, pageCode, loadMessages(state.lang)]);
  // As a transition, React hydrates the root in slices, not in one task.
  startTransition(() => {
    hydrateRoot(document.getElementById("root") as HTMLElement, <App state={state} />, {
      onRecoverableError: (error) => console.error("hydration:", error),
    });
  });
  await pageHydrated;
  // A part whose code fails to arrive keeps its server HTML, and tries again when it is needed.
  await loadLaterParts().catch(() => {});
  document.documentElement.dataset.hydrated = "true";
  // Detected here, not on the server, so one cached page serves every browser; others load none of it.
  if (state.config.wechat && navigator.userAgent.includes("MicroMessenger")) import("./wechat/wechat-share.ts").catch(() => {});
}

void hydrate();
