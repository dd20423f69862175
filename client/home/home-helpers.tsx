/** Small pieces the home page's sections share: state rendering and the layout mode. */
import type { ReactNode } from "react";
import type { SiteConfig } from "../../shared/entities.ts";
import { textOf } from "../data/content-values.ts";
import type { ApiResult } from "../data/use-api.ts";
import { ErrorState, LoadingState } from "../shell/page-states.tsx";

/** A section's body by the state of its call: error (with retry), loading, or the data. */
export function renderResult<T>(result: ApiResult<T>, render: (data: T) => ReactNode): ReactNode {
  if (result.error) return <ErrorState error={result.error} onRetry={result.retry} />;
  if (result.data === undefined) return result.isLoading ? <LoadingState /> : null;
  return render(result.data);
}

/** Layout mode 2 (the second number of themePortal) is the custom home; anything else is the default one. */
export function isCustomLayout(config: SiteConfig | undefined): boolean {
  return textOf(config?.themePortal).split(",")[1]?.trim() === "2";
}
