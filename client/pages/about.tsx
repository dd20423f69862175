/** The company introduction (/about/index.html): its HTML brief under the page heading. */

import type { CompanyIntro } from "../../shared/entities.ts";
import { ChineseOnlyNotice, useItemLang } from "../components/content-lang.tsx";
import { stateInstead } from "../components/data-state.tsx";
import { RichHtml } from "../components/rich-html.tsx";
import { useApi } from "../data/use-api.ts";
import { usePageName } from "../hooks/use-page-title.ts";
import { useT } from "../i18n/use-t.ts";
import type { PageProps } from "./page-props.ts";

export default function AboutPage({ match }: PageProps<"about">) {
  const pageName = usePageName(match.route);
  const t = useT();
  const result = useApi<CompanyIntro>(match.route.keys.company());
  const itemLang = useItemLang();
  return (
    <div className="page-wrap page-wrap-narrow">
      <article className="detail">
        <h1 className="page-title">{pageName}</h1>
        {stateInstead(result) ??
          (typeof result.data?.brief === "string" && result.data.brief ? (
            <>
              <ChineseOnlyNotice item={result.data} />
              <RichHtml html={result.data.brief} className="detail-body" lang={itemLang(result.data)} />
            </>
          ) : (
            <p className="page-empty">{t("state.empty")}</p>
          ))}
      </article>
    </div>
  );
}
