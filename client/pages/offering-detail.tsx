/** A product or service page: name, the product's image, the HTML detail; an unknown id is the not-found state. */

import type { Product, Service } from "../../shared/entities.ts";
import { parentHref } from "../../shared/routes.ts";
import { AskLink } from "../components/ask-link.tsx";
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
import type { PageProps } from "./page-props.ts";

export default function OfferingDetailPage({ match }: PageProps<"productDetail" | "serviceDetail">) {
  const t = useT(PAGES_MESSAGES);
  const itemLang = useItemLang();
  const product = match.route.id === "productDetail";
  const id = match.id;
  const result = useApi<Partial<Product> & Service>(id === undefined ? null : match.route.detail.key(id), { detail: true });

  if (id === undefined) return <NotFoundState />;
  const item = result.data;
  const lang = itemLang(item);
  const name = textOf(item?.name);
  const picture = textOf(item?.propImg);
  return (
    <div className="page-wrap page-wrap-narrow">
      {stateInstead(result) ??
        (item && (
          <article className="detail" lang={lang}>
            <ChineseOnlyNotice item={item} />
            <header className="detail-head">
              <h1 className="page-title">{name}</h1>
            </header>
            {/* The product's picture, unless its detail already opens with it. */}
            {product && picture && !textOf(item.detail).includes(encodeURIComponent(picture)) && (
              <ResponsiveImg
                className="detail-img detail-img-product"
                src={picture}
                alt={name}
                width={800}
                height={600}
                box={[320, 560]}
                sizes="(max-width: 608px) calc(100vw - 48px), 560px"
              />
            )}
            <RichHtml html={item.detail} className="detail-body" />
            <AskLink subject={name} />
          </article>
        ))}
      <p className="detail-back">
        <PageLink to={parentHref(match.route)}>{t(product ? "pages.offering.backProducts" : "pages.offering.backServices")}</PageLink>
      </p>
    </div>
  );
}
