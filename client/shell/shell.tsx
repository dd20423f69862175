/**
 * The frame of every page (docs/behaviour.md#the-shell). It never re-renders as the page starts:
 * a change reaching a part not yet hydrated would make React hydrate it at once.
 */
import { type ReactNode, useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { keys } from "../../shared/data-keys.ts";
import type { SiteConfig } from "../../shared/entities.ts";
import { textOf } from "../data/content-values.ts";
import { useApi } from "../data/use-api.ts";
import { HydrateApart } from "../hydration/hydrate-apart.tsx";
import { LaterPart, partCode } from "../hydration/later-part.tsx";
import { useT } from "../i18n/use-t.ts";
import { KeptOnServer, keptOnServer } from "../reused-parts/part-mode.tsx";
import { scrollToAnchorWhenReady, takePendingAnchor } from "../routing/scroll.ts";
import { DocumentTitle } from "./document-title.tsx";
import { ErrorBoundary } from "./error-boundary.tsx";
import { Header } from "./header.tsx";
import { PreviewBanner } from "./preview-banner.tsx";

const FOOTER_ID = "site-footer";
// On the server, a page's header and footer are the ones kept for its site version and language (docs/architecture.md#reused-parts).
const FOOTER = partCode(() =>
  import("./footer.tsx").then((module) => (import.meta.env.SSR ? keptOnServer("footer", module.Footer) : module.Footer)),
);
const BACK_TO_TOP_ID = "back-to-top";
const BACK_TO_TOP = partCode(() => import("./back-to-top.tsx").then((module) => module.BackToTop));

/** docs/behaviour.md#the-shell. */
function themeClassOf(config: Partial<SiteConfig> | undefined): string {
  const mode = textOf(config?.themePortal).split(",")[0]?.trim();
  return mode === "1" || mode === "2" ? `theme-${mode}` : "theme-default";
}

/** To the anchor a link asked for, else to the top; not on back/forward. */
function useScrollOnNavigation(location: string): void {
  const shown = useRef(location);
  // The path the last back/forward went to: arriving there is a history move, whose scroll the browser restores.
  const poppedTo = useRef<string | null>(null);
  useEffect(() => {
    const onPop = () => {
      poppedTo.current = window.location.pathname;
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  useEffect(() => {
    if (shown.current === location) return;
    shown.current = location;
    const wasPop = poppedTo.current === window.location.pathname;
    poppedTo.current = null;
    const anchor = takePendingAnchor();
    if (anchor) {
      const aborted = new AbortController();
      scrollToAnchorWhenReady(anchor, aborted.signal);
      return () => aborted.abort();
    }
    if (!wasPop) window.scrollTo({ top: 0, behavior: "instant" });
  }, [location]);
}

export function Shell({ children }: { children: ReactNode }) {
  const t = useT();
  const config = useApi<Partial<SiteConfig>>(keys.syscfg()).data;
  const [location] = useLocation();
  useScrollOnNavigation(location);

  return (
    <div className={`site ${themeClassOf(config)}`}>
      <a className="skip-link" href="#main-content">
        {t("shell.skip")}
      </a>
      <PreviewBanner />
      <HydrateApart>{import.meta.env.SSR ? <KeptOnServer part="header" inPlace={Header} props={{}} /> : <Header />}</HydrateApart>
      <main id="main-content" tabIndex={-1}>
        <ErrorBoundary resetKey={location}>
          <HydrateApart>{children}</HydrateApart>
        </ErrorBoundary>
      </main>
      <LaterPart code={FOOTER} elementId={FOOTER_ID} props={{ id: FOOTER_ID }} />
      <LaterPart code={BACK_TO_TOP} elementId={BACK_TO_TOP_ID} props={{ id: BACK_TO_TOP_ID }} />
      <DocumentTitle />
    </div>
  );
}
