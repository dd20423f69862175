/** A job's page: its facts, then its HTML texts; an unknown id is the not-found state. */

import type { Job, JobAddr, JobType } from "../../shared/entities.ts";
import { parentHref } from "../../shared/routes.ts";
import { AskLink } from "../components/ask-link.tsx";
import { ChineseOnlyNotice, useItemLang } from "../components/content-lang.tsx";
import { stateInstead } from "../components/data-state.tsx";
import { RichHtml } from "../components/rich-html.tsx";
import { namedItemsOf, textOf } from "../data/content-values.ts";
import { useApi } from "../data/use-api.ts";
import { PAGES_MESSAGES } from "../i18n/messages-pages.ts";
import { useT } from "../i18n/use-t.ts";
import { PageLink } from "../routing/page-link.tsx";
import { NotFoundState } from "../shell/page-states.tsx";
import { JobFacts } from "./jobs/job-facts.tsx";
import type { PageProps } from "./page-props.ts";

export default function JobDetailPage({ match }: PageProps<"jobSocietyDetail" | "jobSchoolDetail">) {
  const t = useT(PAGES_MESSAGES);
  const { route, id } = match;
  const result = useApi<Job>(id === undefined ? null : route.detail.key(id), { detail: true });
  const types = useApi<JobType[]>(route.keys.types());
  const addrs = useApi<JobAddr[]>(route.keys.addrs());

  const itemLang = useItemLang();
  if (id === undefined) return <NotFoundState />;
  const job = result.data;
  const sections = [
    { title: t("pages.jobs.description"), html: job?.description },
    { title: t("pages.jobs.requirement"), html: job?.requirement },
    { title: t("pages.jobs.callHr"), html: job?.callHr },
  ];
  return (
    <div className="page-wrap page-wrap-narrow">
      {stateInstead(result) ??
        (job && (
          <article className="detail">
            <ChineseOnlyNotice item={job} />
            <header className="detail-head">
              <h1 className="page-title" lang={itemLang(job)}>
                {textOf(job.name)}
              </h1>
              <JobFacts
                job={job}
                typeName={namedItemsOf(types.data).find((type) => type.id === job.jobTypeId)?.name}
                addrName={namedItemsOf(addrs.data).find((addr) => addr.id === job.jobAddrId)?.name}
              />
            </header>
            {sections.map((section) =>
              typeof section.html === "string" && section.html ? (
                <section key={section.title} className="job-section">
                  <h2>{section.title}</h2>
                  <RichHtml html={section.html} className="detail-body" />
                </section>
              ) : null,
            )}
            <AskLink subject={textOf(job.name)} />
          </article>
        ))}
      <p className="detail-back">
        <PageLink to={parentHref(route)}>{t(route.jobKind === 1 ? "pages.jobs.backSociety" : "pages.jobs.backSchool")}</PageLink>
      </p>
    </div>
  );
}
