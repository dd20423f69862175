/** The company introduction (/about/index.html): its HTML brief under the page heading. */

import { keys } from "../../shared/data-keys.ts";
import type { CompanyIntro } from "../../shared/entities.ts";
import { useApi } from "../data/use-api.ts";
import { useT } from "../i18n/use-t.ts";
import { stateInstead } from "../pages-parts/data-state.tsx";
import { RichHtml } from "../pages-parts/rich-html.tsx";

import { usePageName } from "../pages-parts/use-page-title.ts";
import type { PageProps } from "./page-props.ts";

export default function AboutPage({ match }: PageProps) {
  const pageName = usePageName(match.route);
  const t = useT();
  const result = useApi<CompanyIntro>(keys.company());
  return (
    <div className="page-wrap page-wrap-narrow">
      <article className="detail">
        <h1 className="page-title">{pageName}</h1>
        {stateInstead(result) ??
          (typeof result.data?.brief === "string" && result.data.brief ? (
            <RichHtml html={result.data.brief} className="detail-body" />
          ) : (
            <p className="page-empty">{t("state.empty")}</p>
          ))}
      </article>
    </div>
  );
}
