/** Catches rendering errors below it; a new `resetKey` (the page path) clears the error (docs/behaviour.md#the-shell). */
import { Component, type ErrorInfo, type ReactNode } from "react";
import { useT } from "../i18n/use-t.ts";
import { ReloadIcon } from "./icons.tsx";

function ErrorFallback({ onRetry }: { onRetry: () => void }) {
  const t = useT();
  return (
    <div className="page-state page-state-error error-fallback" role="alert">
      <ReloadIcon />
      <p className="error-fallback-title">{t("shell.error")}</p>
      <p className="muted">{t("shell.errorHint")}</p>
      <div className="error-fallback-actions">
        <button type="button" className="button button-primary" onClick={onRetry}>
          {t("state.retry")}
        </button>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t("state.reload")}
        </button>
      </div>
    </div>
  );
}

interface ErrorBoundaryProps {
  children: ReactNode;
  resetKey?: unknown;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("render error:", error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render(): ReactNode {
    if (this.state.failed) return <ErrorFallback onRetry={() => this.setState({ failed: false })} />;
    return this.props.children;
  }
}
