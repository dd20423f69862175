/** The milestone timeline: further pages load as the visitor nears the end, or by a link without JavaScript (docs/behaviour.md#list-pages). */
import { useEffect, useRef, useState } from "react";
import { formatYearMonth } from "../../shared/dates.ts";
import type { Milestone } from "../../shared/entities.ts";
import type { Paged } from "../../shared/envelope.ts";
import { listPagingOf } from "../../shared/list-query.ts";
import { milestones } from "../../shared/pages/about-pages.ts";
import { useItemLang } from "../components/content-lang.tsx";
import { stateInstead } from "../components/data-state.tsx";
import { countOf, pagedItemsOf, textOf } from "../data/content-values.ts";
import { useApi } from "../data/use-api.ts";
import { useHydrated } from "../hooks/use-hydrated.ts";
import { usePageName } from "../hooks/use-page-title.ts";
import { PAGES_MESSAGES } from "../i18n/messages-pages.ts";
import { useT } from "../i18n/use-t.ts";
import { PageLink } from "../routing/page-link.tsx";
import type { PageProps } from "./page-props.ts";

const PRELOAD_MARGIN = "0px 0px 600px 0px";

export default function MilestonesPage({ match, query }: PageProps<"milestones">) {
  const pageName = usePageName(match.route);
  const start = listPagingOf(query).page - 1;
  return (
    <div className="page-wrap page-wrap-narrow">
      <h1 className="page-title">{pageName}</h1>
      {/* A new first page starts a new timeline. */}
      <Timeline key={start} start={start} />
    </div>
  );
}

function Timeline({ start }: { start: number }) {
  const t = useT(PAGES_MESSAGES);
  const hydrated = useHydrated();
  const first = useApi<Paged<Milestone>>(milestones.keys.page(start));
  // Pages shown after the first one; the last of them is the one loading, failed or loaded.
  const [more, setMore] = useState(0);
  const lastIndex = start + more;
  const last = useApi<Paged<Milestone>>(milestones.keys.page(lastIndex));
  const totalPages = countOf(last.data?.totalPageCount ?? first.data?.totalPageCount);
  const hasMore = last.data !== undefined && lastIndex + 1 < totalPages;
  const sentinelRef = useRef<HTMLDivElement>(null);

  // A new observer reports the sentinel's position at once, so a short page on a tall screen goes on loading.
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!hydrated || !hasMore || !sentinel) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        setMore((n) => n + 1);
      },
      { rootMargin: PRELOAD_MARGIN },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hydrated, hasMore]);

  const instead = stateInstead(first);
  if (instead) return instead;
  if (first.data !== undefined && pagedItemsOf(first.data).length === 0) return <p className="page-empty">{t("state.empty")}</p>;

  const pageIndexes = Array.from({ length: more + 1 }, (_, i) => start + i);
  const pageHref = (index: number) => milestones.href({ page: index > 0 ? index + 1 : undefined });
  return (
    <>
      {start > 0 && (
        <p className="timeline-newer">
          <PageLink to={pageHref(start - 1)}>{t("pages.milestones.newer")}</PageLink>
        </p>
      )}
      <ol className="timeline" aria-label={t("pages.milestones.timeline")}>
        {pageIndexes.map((index) => (
          <TimelinePage key={index} pageIndex={index} />
        ))}
      </ol>
      {more > 0 && last.data === undefined && (
        <div className="timeline-status">
          {last.error ? (
            <div role="alert">
              <p>{t("pages.milestones.loadFailed")}</p>
              <button type="button" className="button" onClick={last.retry}>
                {t("state.retry")}
              </button>
            </div>
          ) : (
            <p role="status">
              <span className="spinner" aria-hidden="true" />
              {t("pages.milestones.loadingMore")}
            </p>
          )}
        </div>
      )}
      {hasMore &&
        (hydrated ? (
          <div ref={sentinelRef} className="timeline-sentinel" aria-hidden="true" />
        ) : (
          <p className="timeline-more">
            <PageLink className="button" to={pageHref(lastIndex + 1)}>
              {t("pages.milestones.more")}
            </PageLink>
          </p>
        ))}
      {!hasMore && last.data !== undefined && more > 0 && <p className="timeline-end">{t("pages.milestones.end")}</p>}
    </>
  );
}

function TimelinePage({ pageIndex }: { pageIndex: number }) {
  const itemLang = useItemLang();
  const { data } = useApi<Paged<Milestone>>(milestones.keys.page(pageIndex));
  return (
    <>
      {pagedItemsOf<Milestone>(data).map((milestone, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: milestones carry no id (docs/behaviour.md#entities); a page's order is stable
        <li key={`${pageIndex}-${index}`} className="timeline-item">
          <time className="timeline-date" dateTime={formatYearMonth(milestone.date) || undefined}>
            {formatYearMonth(milestone.date)}
          </time>
          <p className="timeline-brief" lang={itemLang(milestone)}>
            {textOf(milestone.brief)}
          </p>
        </li>
      ))}
    </>
  );
}
