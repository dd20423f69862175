/** The founders (/about/member/index.html): heading = full name + 创始团队/Founders, then one card per founder. */

import type { Founder } from "../../shared/entities.ts";
import { useItemLang } from "../components/content-lang.tsx";
import { stateInstead } from "../components/data-state.tsx";
import { ResponsiveImg } from "../components/responsive-img.tsx";
import { itemsOf, textOf } from "../data/content-values.ts";
import { useApi } from "../data/use-api.ts";
import { usePageHeading } from "../hooks/use-page-title.ts";
import { PAGES_MESSAGES } from "../i18n/messages-pages.ts";
import { useT } from "../i18n/use-t.ts";
import type { PageProps } from "./page-props.ts";

export default function FoundersPage({ match }: PageProps<"founders">) {
  const t = useT(PAGES_MESSAGES);
  const itemLang = useItemLang();
  const result = useApi<Founder[]>(match.route.keys.founders());
  const heading = usePageHeading(match);
  const founders = itemsOf<Founder>(result.data);
  return (
    <div className="page-wrap">
      <h1 className="page-title">{heading}</h1>
      {stateInstead(result) ??
        (founders.length === 0 ? (
          <p className="page-empty">{t("state.empty")}</p>
        ) : (
          <ul className="founder-grid" aria-label={t("pages.founders.list")}>
            {founders.map((founder, index) => (
              // Founders carry no id of their own (docs/behaviour.md#entities); the list order is stable.
              // biome-ignore lint/suspicious/noArrayIndexKey: no id in the payload
              <li key={index} className="founder-card" lang={itemLang(founder)}>
                <ResponsiveImg
                  className="founder-photo"
                  src={founder.picture}
                  alt={textOf(founder.name)}
                  width={160}
                  height={160}
                  box={[140, 140]}
                  sizes="140px"
                />
                <h2 className="founder-name">{textOf(founder.name)}</h2>
                {textOf(founder.job) && <p className="founder-job">{textOf(founder.job)}</p>}
                {textOf(founder.brief) && <p className="founder-brief">{textOf(founder.brief)}</p>}
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}
