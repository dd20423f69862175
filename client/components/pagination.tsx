/** Paging of a list page: every state a URL, so it all works without JavaScript (docs/behaviour.md#list-pages). */
import { type FormEvent, useId } from "react";
import { type ListPaging, PAGE_SIZES } from "../../shared/list-query.ts";
import type { QueryValues } from "../../shared/with-query.ts";
import { useFormAction, useGo } from "../hooks/page-query.ts";
import { fill } from "../i18n/fill.ts";
import { PAGES_MESSAGES } from "../i18n/messages-pages.ts";
import { useT } from "../i18n/use-t.ts";
import { PageLink } from "../routing/page-link.tsx";
import { listHref, pageAfterResize, pageItems } from "./paging.ts";

interface PaginationProps {
  path: string;
  paging: ListPaging;
  totalCount: number;
  totalPageCount: number;
  /** The list's filters, kept on every link. */
  keep?: QueryValues;
}

export function Pagination({ path, paging, totalCount, totalPageCount, keep = {} }: PaginationProps) {
  const t = useT(PAGES_MESSAGES);
  const go = useGo();
  const formAction = useFormAction();
  const sizeId = useId();
  const jumpId = useId();
  const pages = Math.max(totalPageCount, Math.ceil(totalCount / paging.size), 1);
  const href = (page: number, size = paging.size) => listHref(path, page, size, keep);

  const onSize = (size: number) => go(href(Math.min(pageAfterResize(paging, size), Math.max(1, Math.ceil(totalCount / size))), size));
  const onJump = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const wanted = Number(form.get("page"));
    const size = Number(form.get("size")) || paging.size;
    const page = Number.isInteger(wanted) && wanted >= 1 ? Math.min(wanted, pages) : paging.page;
    event.currentTarget.reset();
    go(href(page, size));
  };

  return (
    <div className="pager">
      <p className="pager-total">{t.count("pages.list.total", totalCount)}</p>
      <nav className="pager-nav" aria-label={t("pages.list.pagination")}>
        <ul>
          <li>
            {paging.page > 1 ? (
              <PageLink className="pager-step" to={href(Math.min(paging.page - 1, pages))} rel="prev">
                {t("pages.list.previous")}
              </PageLink>
            ) : (
              <span className="pager-step" aria-disabled="true">
                {t("pages.list.previous")}
              </span>
            )}
          </li>
          {pageItems(paging.page, pages).map((item) =>
            typeof item === "number" ? (
              <li key={item}>
                <PageLink
                  className="pager-page"
                  to={href(item)}
                  aria-current={item === paging.page ? "page" : undefined}
                  aria-label={fill(t("pages.list.pageN"), { n: item })}
                >
                  {item}
                </PageLink>
              </li>
            ) : (
              <li key={item} className="pager-gap">
                <span aria-hidden="true">…</span>
                <span className="visually-hidden">{t("pages.list.pagesSkipped")}</span>
              </li>
            ),
          )}
          <li>
            {paging.page < pages ? (
              <PageLink className="pager-step" to={href(paging.page + 1)} rel="next">
                {t("pages.list.next")}
              </PageLink>
            ) : (
              <span className="pager-step" aria-disabled="true">
                {t("pages.list.next")}
              </span>
            )}
          </li>
        </ul>
      </nav>
      <form className="pager-form" method="get" action={formAction(path)} onSubmit={onJump}>
        {Object.entries(keep).map(([name, value]) =>
          value === undefined || value === "" ? null : <input key={name} type="hidden" name={name} value={String(value)} />,
        )}
        <label htmlFor={sizeId}>{t("pages.list.size")}</label>
        <select id={sizeId} name="size" value={paging.size} onChange={(event) => onSize(Number(event.target.value))}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {fill(t("pages.list.sizeOption"), { n: size })}
            </option>
          ))}
        </select>
        <label htmlFor={jumpId}>{t("pages.list.jump")}</label>
        <input
          id={jumpId}
          className="pager-jump"
          type="number"
          name="page"
          min={1}
          max={pages}
          inputMode="numeric"
          placeholder={String(Math.min(paging.page, pages))}
          aria-describedby={`${jumpId}-of`}
        />
        {t("pages.list.jumpUnit") && <span aria-hidden="true">{t("pages.list.jumpUnit")}</span>}
        <span id={`${jumpId}-of`} className="visually-hidden">
          {fill(t("pages.list.pageOfPages"), { n: Math.min(paging.page, pages), total: pages })}
        </span>
        <button type="submit" className="button">
          {t("pages.list.go")}
        </button>
      </form>
    </div>
  );
}
