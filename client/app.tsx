/**
 * The whole client app, rendered by the server (entry-server) and hydrated in the
 * browser (entry-client) from the same PageState: wouter for routing under /portal,
 * SWR for data with the server's answers as its fallback.
 */
import { useEffect, useMemo, useState } from "react";
import { SWRConfig, type SWRConfiguration } from "swr";
import { Router, useLocation } from "wouter";
import { keyInLang } from "../shared/data-keys.ts";
import { contentLangOf, type PageState } from "../shared/page-state.ts";
import { BASE_PATH, splitLangPath } from "../shared/routes.ts";
import { ApiError } from "./data/api-error.ts";
import { PageStateContext } from "./data/page-state-context.tsx";
import { RootHydrated } from "./hydration/hydrate-apart.tsx";
import { englishMessages, loadMessages } from "./i18n/messages.ts";
import { fetchPageData, PageSwitch } from "./page-switch.tsx";
import { ErrorBoundary } from "./shell/error-boundary.tsx";
import { Shell } from "./shell/shell.tsx";

/**
 * docs/behaviour.md#page-data. Slow-loading (3 s, 5 s on slow networks) and error-retry intervals
 * (5 s, 10 s slow) are SWR's own defaults, which it picks by connection speed, so they
 * are not overridden. Data already held is not fetched again on mount: hydration uses
 * the server's answers as they are, and nothing is refetched on focus.
 */
export const SWR_OPTIONS: SWRConfiguration = {
  fetcher: fetchPageData,
  revalidateOnFocus: false,
  revalidateIfStale: false,
  dedupingInterval: 2000,
  focusThrottleInterval: 5000,
  // Retry only while the page is visible and never for "no such item", backing off as SWR does.
  onErrorRetry: (error, _key, config, revalidate, { retryCount }) => {
    if ((error instanceof ApiError && error.notFound) || document.visibilityState !== "visible") return;
    if (retryCount > (config.errorRetryCount ?? 8)) return;
    const backoff = ~~((Math.random() + 0.5) * (1 << Math.min(retryCount, 8)));
    setTimeout(() => revalidate({ retryCount }), backoff * config.errorRetryInterval);
  },
};

export interface AppProps {
  state: PageState;
  /** On the server: the request's path under /portal and its query (without "?"). */
  ssrPath?: string;
  ssrSearch?: string;
}

/** The embedded answers under the keys SWR asks for them by: in the page's content language. */
function swrFallbackOf(state: PageState): Record<string, unknown> {
  const lang = contentLangOf(state.lang, state.config);
  return Object.fromEntries(Object.entries(state.fallback).map(([key, value]) => [keyInLang(key, lang), value]));
}

export function App({ state, ssrPath, ssrSearch }: AppProps) {
  const fallback = useMemo(() => swrFallbackOf(state), [state]);
  return (
    <SWRConfig value={{ ...SWR_OPTIONS, fallback }}>
      <Router base={BASE_PATH} ssrPath={ssrPath} ssrSearch={ssrSearch}>
        <PageInItsLang state={state} />
      </Router>
    </SWRConfig>
  );
}

/**
 * The page's language is its address's (docs/behaviour.md#languages): a client
 * navigation to the other language's address shows the app in it. The answers embedded
 * in the first page are that page's language's only, so a page in the other one reads
 * none of them.
 */
function PageInItsLang({ state }: { state: PageState }) {
  const [location] = useLocation();
  const { lang } = splitLangPath(location);
  const pageState = useMemo(
    () => (lang === state.lang ? state : { ...state, lang, translated: false, fallback: {}, failures: {} }),
    [state, lang],
  );
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  // The switch loads the strings before it navigates; any other way into English (a link from the upstream) loads them here.
  const [, setStringsLoaded] = useState(false);
  useEffect(() => {
    if (lang === "en" && !englishMessages())
      void loadMessages("en").then(
        () => setStringsLoaded(true),
        () => {},
      );
  }, [lang]);
  return (
    <PageStateContext value={pageState}>
      <ErrorBoundary>
        <Shell>
          <PageSwitch />
        </Shell>
      </ErrorBoundary>
      {/* Rendered on the server too, so both trees have the same shape (and useId the same ids). */}
      <RootHydrated />
    </PageStateContext>
  );
}
