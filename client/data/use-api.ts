/** Reads one data call by key through SWR; the server's answers come from the page state, so hydration fetches nothing. */
import useSWR, { useSWRConfig } from "swr";
import { keyInLang } from "../../shared/data-keys.ts";
import { isEmptyPayload } from "../../shared/envelope.ts";
import { contentLangOf } from "../../shared/page-state.ts";
import { ApiError } from "./api-error.ts";
import { useLiveData } from "./live-data.ts";
import { usePageState } from "./page-state-context.tsx";

export interface ApiResult<T> {
  data: T | undefined;
  error: ApiError | undefined;
  notFound: boolean;
  isLoading: boolean;
  retry: () => void;
}

/** In the page's content language (docs/behaviour.md#languages). */
export function useKeyInLang(): (key: string) => string {
  const { lang, config } = usePageState();
  const contentLang = contentLangOf(lang, config);
  return (key) => keyInLang(key, contentLang);
}

export function useApi<T>(plainKey: string | null, options: { detail?: boolean } = {}): ApiResult<T> {
  const state = usePageState();
  const live = useLiveData();
  const { mutate } = useSWRConfig();
  const inLang = useKeyInLang();
  // The page state's answers are held by the plain key; SWR's by the key in the page's language.
  const key = plainKey;
  const swrKey = plainKey === null ? null : inLang(plainKey);
  const swr = useSWR<T | null, ApiError>(live ? swrKey : null);
  const data = live ? swr.data : key ? (state.fallback[key] as T | null | undefined) : undefined;
  const serverFailure = key ? state.failures[key] : undefined;
  const settled = data !== undefined || swr.error !== undefined;
  const notFound = swr.error?.notFound === true || (options.detail === true && data !== undefined && isEmptyPayload(data));
  const error = swr.error ?? (serverFailure && !settled ? new ApiError(serverFailure, "request failed") : undefined);
  return {
    data: notFound || data === null ? undefined : data,
    error: notFound ? undefined : error,
    notFound,
    isLoading: key !== null && !settled && !serverFailure,
    retry: () => void (swrKey && mutate(swrKey)),
  };
}
