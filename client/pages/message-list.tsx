/** The news or notice list, newest first and paged (docs/behaviour.md#list-pages). */

import { formatDateTime, toIsoDate } from "../../shared/dates.ts";
import type { Message } from "../../shared/entities.ts";
import type { Paged } from "../../shared/envelope.ts";
import { listPagingOf } from "../../shared/list-query.ts";
import { UntranslatedMark, useItemLang } from "../components/content-lang.tsx";
import { stateInstead } from "../components/data-state.tsx";
import { Pagination } from "../components/pagination.tsx";
import { ResponsiveImg } from "../components/responsive-img.tsx";
import { countOf, isId, pagedItemsOf, textOf } from "../data/content-values.ts";
import { useApi } from "../data/use-api.ts";
import { usePageName } from "../hooks/use-page-title.ts";
import { useScrollTopOnChange } from "../hooks/use-scroll-top.ts";
import { useT } from "../i18n/use-t.ts";
import { PageLink } from "../routing/page-link.tsx";
import type { PageProps } from "./page-props.ts";

export default function MessageListPage({ match, query }: PageProps<"newsList" | "noticeList">) {
  const pageName = usePageName(match.route);
  const t = useT();
  const itemLang = useItemLang();
  const { route } = match;
  const paging = listPagingOf(query);
  const key = route.keys.list(paging);
  const result = useApi<Paged<Message>>(key);
  useScrollTopOnChange(key);

  const list = result.data;
  const items = pagedItemsOf<Message>(list).filter((item) => isId(item.id));
  return (
    <div className="page-wrap">
      <h1 className="page-title">{pageName}</h1>
      {stateInstead(result) ??
        (list && (
          <>
            {items.length === 0 ? (
              <p className="page-empty">{t("state.empty")}</p>
            ) : (
              <ul className="msg-list">
                {items.map((item) => (
                  <li key={item.id}>
                    <article className={textOf(item.img) ? "msg-item msg-item-with-img" : "msg-item"} lang={itemLang(item)}>
                      <div className="msg-item-text">
                        <h2 className="msg-item-title">
                          <PageLink to={route.itemPage().href({ id: item.id })}>{textOf(item.title)}</PageLink>
                          <UntranslatedMark item={item} />
                        </h2>
                        {formatDateTime(item.dateTime) && (
                          <time className="msg-item-date" dateTime={toIsoDate(item.dateTime)}>
                            {formatDateTime(item.dateTime)}
                          </time>
                        )}
                        {textOf(item.brief) && <p className="msg-item-brief">{textOf(item.brief)}</p>}
                      </div>
                      {textOf(item.img) && (
                        <ResponsiveImg
                          className="msg-item-img"
                          src={item.img}
                          box={[112, 240]}
                          sizes="(max-width: 768px) 112px, 240px"
                          alt=""
                          width={240}
                          height={135}
                          loading="lazy"
                          decoding="async"
                        />
                      )}
                    </article>
                  </li>
                ))}
              </ul>
            )}
            <Pagination
              path={route.href()}
              paging={paging}
              totalCount={countOf(list.totalCount)}
              totalPageCount={countOf(list.totalPageCount)}
            />
          </>
        ))}
    </div>
  );
}
