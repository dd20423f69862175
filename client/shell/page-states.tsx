/** The loading, error and not-found states every page shares. */
import { pageHref } from "../../shared/routes.ts";
import type { ApiError } from "../data/api-error.ts";
import { useT } from "../i18n/use-t.ts";

export function LoadingState() {
  const t = useT();
  return (
    <div className="page-state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {t("state.loading")}
    </div>
  );
}

export function ErrorState({ error, onRetry }: { error: ApiError | undefined; onRetry: () => void }) {
  const t = useT();
  return (
    <div className="page-state page-state-error" role="alert">
      <p>{error?.status === 504 ? t("state.errorTimeout") : t("state.error")}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t("state.retry")}
      </button>
    </div>
  );
}

export function NotFoundState() {
  const t = useT();
  return (
    <div className="page-state">
      <h1>{t("state.notFound")}</h1>
      <a href={pageHref("home")}>{t("state.backHome")}</a>
    </div>
  );
}
