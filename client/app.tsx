/** The client app, rendered by the server and hydrated in the browser from the same PageState. */
import { useEffect, useMemo, useState } from "react";
import { SWRConfig, type SWRConfiguration } from "swr";
import { Router, useLocation } from "wouter";
import { keyInLang } from "../shared/data-keys.ts";
import { dirOf } from "../shared/langs.ts";
import { contentLangOf, type PageState } from "../shared/page-state.ts";
import { BASE_PATH, splitLangPath } from "../shared/routes.ts";
import { ApiError } from "./data/api-error.ts";
import { PageStateContext } from "./data/page-state-context.tsx";
import { RootHydrated } from "./hydration/hydrate-apart.tsx";
import { hasMessages, loadMessages } from "./i18n/messages.ts";
import { fetchPageData, PageSwitch } from "./page-switch.tsx";
import { ErrorBoundary } from "./shell/error-boundary.tsx";
import { Shell } from "./shell/shell.tsx";

/** docs/behaviour.md#page-data; slow-loading and retry intervals are SWR's own, by connection speed. */
const SWR_OPTIONS: SWRConfiguration = {
  fetcher: fetchPageData,
  revalidateOnFocus: false,
  revalidateIfStale: false,
  dedupingInterval: 2000,
  focusThrottleInterval: 5000,
  // Only while the page is visible and never for "no such item".
  onErrorRetry: (error, _key, config, revalidate, { retryCount }) => {
    if ((error instanceof ApiError && error.notFound) || document.visibilityState !== "visible") return;
    if (retryCount > (config.errorRetryCount ?? 8)) return;
    const backoff = ~~((Math.random() + 0.5) * (1 << Math.min(retryCount, 8)));
    setTimeout(() => revalidate({ retryCount }), backoff * config.errorRetryInterval);
  },
};

interface AppProps {
  state: PageState;
  ssrPath?: string;
  ssrSearch?: string;
}

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

/** The embedded answers are the first page's language's only (docs/behaviour.md#languages). */
function PageInItsLang({ state }: { state: PageState }) {
  const [location] = useLocation();
  const { lang } = splitLangPath(location);
  const pageState = useMemo(
    // The served form's token is bound to the first page's language too.
    () => (lang === state.lang ? state : { ...state, lang, translated: false, fallback: {}, failures: {}, form: undefined }),
    [state, lang],
  );
  useEffect(() => {
    document.documentElement.lang = lang;
    // As the server writes it: dir="rtl" on a right-to-left page, no dir on the others.
    if (dirOf(lang) === "rtl") document.documentElement.dir = "rtl";
    else document.documentElement.removeAttribute("dir");
  }, [lang]);
  // The switch loads the strings before it navigates; any other way into English loads them here.
  const [, setStringsLoaded] = useState(false);
  useEffect(() => {
    if (!hasMessages(lang))
      void loadMessages(lang).then(
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
