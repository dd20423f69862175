/** The search page; it all works without JavaScript, matched text shown in <mark> (docs/behaviour.md#search). */
import { type FormEvent, Fragment, useId } from "react";
import { formatDateTime, toIsoDate } from "../../shared/dates.ts";
import { BASE_PATH, splitLangPath } from "../../shared/routes.ts";
import {
  MARK_END,
  MARK_START,
  MAX_QUERY_LENGTH,
  parseSearchPage,
  SEARCH_TYPES,
  type SearchQuery,
  type SearchResult,
  type SearchType,
  searchKey,
} from "../../shared/search.ts";
import { stateInstead } from "../components/data-state.tsx";
import { Pagination } from "../components/pagination.tsx";
import { countOf, textOf } from "../data/content-values.ts";
import { useApi } from "../data/use-api.ts";
import { useFormAction, useGo } from "../hooks/page-query.ts";
import { usePageName } from "../hooks/use-page-title.ts";
import { useScrollTopOnChange } from "../hooks/use-scroll-top.ts";
import { fill } from "../i18n/fill.ts";
import { PAGES_MESSAGES } from "../i18n/messages-pages.ts";
import { SEARCH_MESSAGES } from "../i18n/messages-search.ts";
import { useT } from "../i18n/use-t.ts";
import { PageLink } from "../routing/page-link.tsx";
import type { PageProps } from "./page-props.ts";

const MESSAGES = { ...PAGES_MESSAGES, ...SEARCH_MESSAGES };

function markedParts(text: string): { text: string; marked: boolean }[] {
  const parts: { text: string; marked: boolean }[] = [];
  let marked = false;
  for (const piece of text.split(/([\uE000\uE001])/u)) {
    if (piece === MARK_START) marked = true;
    else if (piece === MARK_END) marked = false;
    else if (piece !== "") parts.push({ text: piece, marked });
  }
  return parts;
}

function Marked({ text }: { text: unknown }) {
  return (
    <>
      {markedParts(textOf(text)).map((part, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never move
        part.marked ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>,
      )}
    </>
  );
}

/** Under the base path without its language, as page links take them; anything else is not linked. */
const localPath = (url: unknown) => {
  const text = textOf(url);
  return text.startsWith(`${BASE_PATH}/`) ? splitLangPath(text.slice(BASE_PATH.length)).path : undefined;
};

export default function SearchPage({ match, query }: PageProps<"search">) {
  const { route } = match;
  const pageName = usePageName(match.route);
  const t = useT(MESSAGES);
  const go = useGo();
  const formAction = useFormAction();
  const inputId = useId();
  const parsed = parseSearchPage(query);
  const search: SearchQuery = parsed.ok ? parsed.value : { q: "", pageIndex: 0, pageMaxCount: 20 };
  const key = search.q === "" ? null : searchKey(search);
  const result = useApi<SearchResult>(key);
  useScrollTopOnChange(key ?? "");
  const hrefOf = (type: SearchType | undefined) => route.href({ q: search.q, type });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get("q") ?? "");
    go(route.href({ q: q.trim() }));
  };

  const data = result.data;
  const hits = Array.isArray(data?.pageDataList) ? data.pageDataList : [];
  const total = countOf(data?.totalCount);
  const facets = data?.facets;
  const allCount = facets ? SEARCH_TYPES.reduce((sum, type) => sum + countOf(facets[type]), 0) : 0;

  return (
    <div className="page-wrap search-page">
      <h1 className="page-title">{pageName}</h1>
      {/* biome-ignore lint/a11y/useSemanticElements: the contract names a search form, which <search> would only wrap */}
      <form
        role="search"
        aria-label={t("search.again")}
        className="search-form"
        method="get"
        action={formAction(route.href())}
        onSubmit={onSubmit}
      >
        <label htmlFor={inputId}>{t("search.label")}</label>
        <div className="search-form-row">
          <input
            id={inputId}
            type="search"
            name="q"
            defaultValue={search.q}
            key={search.q}
            maxLength={MAX_QUERY_LENGTH}
            placeholder={t("search.placeholder")}
            enterKeyHint="search"
          />
          <button type="submit" className="button">
            {t("search.submit")}
          </button>
        </div>
      </form>
      <p className="search-count" role="status" aria-live="polite">
        {key === null
          ? t("search.prompt")
          : data
            ? total === 0 && allCount === 0
              ? fill(t("search.none"), { q: search.q })
              : fill(t.count("search.count", total), { q: search.q })
            : ""}
      </p>
      {key !== null &&
        (stateInstead(result) ?? (
          <>
            {allCount > 0 && (
              <nav className="search-facets" aria-label={t("search.facets")}>
                <ul>
                  <li>
                    <PageLink to={hrefOf(undefined)} aria-current={search.type === undefined ? "page" : undefined}>
                      {t("search.all")} <span className="search-facet-count">{allCount}</span>
                    </PageLink>
                  </li>
                  {SEARCH_TYPES.filter((type) => countOf(facets?.[type]) > 0).map((type) => (
                    <li key={type}>
                      <PageLink to={hrefOf(type)} aria-current={search.type === type ? "page" : undefined}>
                        {t(`search.type.${type}`)} <span className="search-facet-count">{countOf(facets?.[type])}</span>
                      </PageLink>
                    </li>
                  ))}
                </ul>
              </nav>
            )}
            {hits.length > 0 && (
              <ol className="search-results" aria-label={t("search.results")}>
                {hits.map((hit) => {
                  const to = localPath(hit.url);
                  const date = formatDateTime(hit.dateTime);
                  return (
                    <li key={`${hit.type}-${hit.id}`} className="search-hit">
                      <article>
                        <p className="search-hit-type">{SEARCH_TYPES.includes(hit.type) ? t(`search.type.${hit.type}`) : ""}</p>
                        <h2 className="search-hit-title">
                          {to ? <PageLink to={to}>{<Marked text={hit.title} />}</PageLink> : <Marked text={hit.title} />}
                        </h2>
                        {date && (
                          <time className="search-hit-date" dateTime={toIsoDate(hit.dateTime)}>
                            {date}
                          </time>
                        )}
                        {textOf(hit.snippet) && (
                          <p className="search-hit-snippet">
                            <Marked text={hit.snippet} />
                          </p>
                        )}
                      </article>
                    </li>
                  );
                })}
              </ol>
            )}
            {total > 0 && (
              <Pagination
                path={route.href()}
                paging={{ page: search.pageIndex + 1, size: search.pageMaxCount }}
                totalCount={total}
                totalPageCount={countOf(data?.totalPageCount)}
                keep={{ q: search.q, type: search.type }}
              />
            )}
          </>
        ))}
    </div>
  );
}
