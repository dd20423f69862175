/**
 * The whole client app, rendered by the server (entry-server) and hydrated in the
 * browser (entry-client) from the same PageState: wouter for routing under /portal,
 * SWR for data with the server's answers as its fallback.
 */
import { useEffect, useMemo, useState } from "react";
import { SWRConfig, type SWRConfiguration } from "swr";
import { Router } from "wouter";
import type { PageState } from "../shared/page-state.ts";
import { BASE_PATH } from "../shared/routes.ts";
import { ApiError } from "./data/api-error.ts";
import { PageStateContext } from "./data/page-state-context.tsx";
import { RootHydrated } from "./hydration/hydrate-apart.tsx";
import { fetchPageData, PageSwitch } from "./page-switch.tsx";
import { ErrorBoundary } from "./shell/error-boundary.tsx";
import { SetLangContext } from "./shell/lang-context.ts";
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

/**
 * The interface language lives here, above every reader of the page state, so the
 * header's switch re-renders the whole app in the other language without a reload;
 * the SWR data is the same in both languages and is not fetched again.
 */
export function App({ state, ssrPath, ssrSearch }: AppProps) {
  const [lang, setLang] = useState(state.lang);
  const pageState = useMemo(() => ({ ...state, lang }), [state, lang]);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return (
    <PageStateContext value={pageState}>
      <SetLangContext value={setLang}>
        <SWRConfig value={{ ...SWR_OPTIONS, fallback: state.fallback }}>
          <Router base={BASE_PATH} ssrPath={ssrPath} ssrSearch={ssrSearch}>
            <ErrorBoundary>
              <Shell>
                <PageSwitch />
              </Shell>
            </ErrorBoundary>
            {/* Rendered on the server too, so both trees have the same shape (and useId the same ids). */}
            <RootHydrated />
          </Router>
        </SWRConfig>
      </SetLangContext>
    </PageStateContext>
  );
}
