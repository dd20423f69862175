/** A news or notice page: title, date, reader count, image and HTML detail; an unknown id is the not-found state. */

import { formatDateTime, toIsoDate } from "../../shared/dates.ts";
import { MESSAGE_KIND, type Message } from "../../shared/entities.ts";
import { DETAIL_IMAGE_SIZES } from "../../shared/image-url.ts";
import { parentHref } from "../../shared/routes.ts";
import { ChineseOnlyNotice, useItemLang } from "../components/content-lang.tsx";
import { stateInstead } from "../components/data-state.tsx";
import { ResponsiveImg } from "../components/responsive-img.tsx";
import { RichHtml } from "../components/rich-html.tsx";
import { textOf } from "../data/content-values.ts";
import { useApi } from "../data/use-api.ts";
import { PAGES_MESSAGES } from "../i18n/messages-pages.ts";
import { useT } from "../i18n/use-t.ts";
import { PageLink } from "../routing/page-link.tsx";
import { NotFoundState } from "../shell/page-states.tsx";
import { ReaderCount } from "./messages/reader-count.tsx";
import type { PageProps } from "./page-props.ts";

export default function MessageDetailPage({ match }: PageProps<"newsDetail" | "noticeDetail">) {
  const t = useT(PAGES_MESSAGES);
  const itemLang = useItemLang();
  const news = match.route.id === "newsDetail";
  const id = match.id;
  const result = useApi<Message>(id === undefined ? null : match.route.detail.key(id), { detail: true });

  if (id === undefined) return <NotFoundState />;
  const instead = stateInstead(result);
  const item = result.data;
  const date = formatDateTime(item?.dateTime);
  return (
    <div className="page-wrap page-wrap-narrow">
      {instead ??
        (item && (
          <article className="detail">
            <ChineseOnlyNotice item={item} />
            <header className="detail-head">
              <h1 className="page-title" lang={itemLang(item)}>
                {textOf(item.title)}
              </h1>
              <p className="detail-meta">
                {date && (
                  <span>
                    <span className="visually-hidden">{t("pages.message.published")} </span>
                    <time dateTime={toIsoDate(item.dateTime)}>{date}</time>
                  </span>
                )}
                <ReaderCount type={news ? MESSAGE_KIND.news : MESSAGE_KIND.notice} pid={id} />
              </p>
            </header>
            <ResponsiveImg className="detail-img" src={item.img} width={800} height={450} box={[320, 800]} sizes={DETAIL_IMAGE_SIZES} />
            <RichHtml html={item.detail} className="detail-body" lang={itemLang(item)} />
          </article>
        ))}
      <p className="detail-back">
        <PageLink to={parentHref(match.route)}>{t(news ? "pages.message.backNews" : "pages.message.backNotice")}</PageLink>
      </p>
    </div>
  );
}
