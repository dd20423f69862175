/** What a page shows before its data: nothing-found, then data (stale wins over a later error), then the error, else loading. */
import type { ReactNode } from "react";
import type { ApiResult } from "../data/use-api.ts";
import { ErrorState, LoadingState, NotFoundState } from "../shell/page-states.tsx";

export function stateInstead<T>(result: ApiResult<T>): ReactNode {
  if (result.notFound) return <NotFoundState />;
  if (result.data !== undefined) return null;
  if (result.error) return <ErrorState error={result.error} onRetry={result.retry} />;
  return <LoadingState />;
}
