/** One column of the home's message-list: the latest news or notices, each a date and a linked title, and a link to the list. */

import { HOME_MESSAGE_COUNT } from "../../shared/data-keys.ts";
import { formatDateTime, toIsoDate } from "../../shared/dates.ts";
import type { Message } from "../../shared/entities.ts";
import { PAGES } from "../../shared/routes.ts";
import { UntranslatedMark, useItemLang } from "../components/content-lang.tsx";
import { isId, pagedItemsOf, textOf } from "../data/content-values.ts";
import type { ApiResult } from "../data/use-api.ts";
import { HOME_MESSAGES } from "../i18n/messages-home.ts";
import { useT } from "../i18n/use-t.ts";
import { PageLink } from "../routing/page-link.tsx";
import { renderResult } from "./home-helpers.tsx";

export function MessageColumn({ kind, result }: { kind: "news" | "notice"; result: ApiResult<unknown> }) {
  const list = PAGES[`${kind}List` as const];
  const t = useT(HOME_MESSAGES);
  const itemLang = useItemLang();
  const headingId = `home-${kind}-title`;
  return (
    <section className="home-messages" aria-labelledby={headingId}>
      <div className="home-messages-head">
        <h2 id={headingId}>{kind === "news" ? t("home.news") : t("home.notices")}</h2>
        <PageLink to={list.href()} className="home-more" aria-label={kind === "news" ? t("home.moreNews") : t("home.moreNotices")}>
          {t("home.more")}
        </PageLink>
      </div>
      {renderResult(result, (data) => {
        const items = pagedItemsOf<Message>(data, HOME_MESSAGE_COUNT);
        if (items.length === 0) return <p className="home-empty">{t("state.empty")}</p>;
        return (
          <ul className="home-message-list">
            {items.map((item, index) => (
              <li key={isId(item.id) ? item.id : `i${index}`} lang={itemLang(item)}>
                {isId(item.id) ? (
                  <PageLink to={list.itemPage().href({ id: item.id })} className="home-message-title">
                    {textOf(item.title)}
                  </PageLink>
                ) : (
                  <span className="home-message-title">{textOf(item.title)}</span>
                )}
                <UntranslatedMark item={item} />
                <time dateTime={toIsoDate(item.dateTime)}>{formatDateTime(item.dateTime)}</time>
              </li>
            ))}
          </ul>
        );
      })}
    </section>
  );
}
