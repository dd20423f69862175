/**
 * Reads one data call by key through SWR. Answers the server rendered with come from
 * the SWR fallback, so hydration fetches nothing; a key that failed on the server
 * shows its error state until the browser's own retry succeeds, so the first client
 * render matches the server HTML.
 */
import useSWR from "swr";
import { isEmptyPayload } from "../../shared/envelope.ts";
import { ApiError } from "./api-error.ts";
import { usePageState } from "./page-state-context.tsx";

export interface ApiResult<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /** A detail call named no item (404, or an empty payload). */
  notFound: boolean;
  isLoading: boolean;
  retry: () => void;
}

export function useApi<T>(key: string | null, options: { detail?: boolean } = {}): ApiResult<T> {
  const state = usePageState();
  const swr = useSWR<T | null, ApiError>(key);
  const serverFailure = key ? state.failures[key] : undefined;
  const settled = swr.data !== undefined || swr.error !== undefined;
  const notFound = swr.error?.notFound === true || (options.detail === true && swr.data !== undefined && isEmptyPayload(swr.data));
  const error = swr.error ?? (serverFailure && !settled ? new ApiError(serverFailure, "request failed") : undefined);
  return {
    data: notFound || swr.data === null ? undefined : swr.data,
    error: notFound ? undefined : error,
    notFound,
    isLoading: key !== null && !settled && !serverFailure,
    retry: () => void swr.mutate(),
  };
}
