/** A job list, filtered and paged, all in the query so the server renders every state (docs/behaviour.md#list-pages). */

import type { Job, JobAddr, JobType } from "../../shared/entities.ts";
import type { Paged } from "../../shared/envelope.ts";
import { jobFilterOf } from "../../shared/list-query.ts";
import { UntranslatedMark, useItemLang } from "../components/content-lang.tsx";
import { stateInstead } from "../components/data-state.tsx";
import { Pagination } from "../components/pagination.tsx";
import { countOf, isId, namedItemsOf, pagedItemsOf, textOf } from "../data/content-values.ts";
import { useApi } from "../data/use-api.ts";
import { usePageName } from "../hooks/use-page-title.ts";
import { useScrollTopOnChange } from "../hooks/use-scroll-top.ts";
import { HydrateApart } from "../hydration/hydrate-apart.tsx";
import { PAGES_MESSAGES } from "../i18n/messages-pages.ts";
import { useT } from "../i18n/use-t.ts";
import { PageLink } from "../routing/page-link.tsx";
import { JobFacts } from "./jobs/job-facts.tsx";
import { JobFilterDrawer, jobFilterHref } from "./jobs/job-filter.tsx";
import type { PageProps } from "./page-props.ts";

export default function JobListPage({ match, query }: PageProps<"jobSocietyList" | "jobSchoolList">) {
  const pageName = usePageName(match.route);
  const t = useT(PAGES_MESSAGES);
  const itemLang = useItemLang();
  const { route } = match;
  const path = route.href();
  const filter = jobFilterOf(query);
  const key = route.keys.list(filter);
  const jobs = useApi<Paged<Job>>(key);
  const types = useApi<JobType[]>(route.keys.types());
  const addrs = useApi<JobAddr[]>(route.keys.addrs());
  useScrollTopOnChange(key);

  const typeList = namedItemsOf(types.data);
  const addrList = namedItemsOf(addrs.data);
  const typeName = new Map(typeList.map((type) => [type.id, type.name]));
  const addrName = new Map(addrList.map((addr) => [addr.id, addr.name]));
  const chosen = [
    ...filter.jobTypeIds.map((id) => typeName.get(id) ?? `#${id}`),
    ...filter.jobAddrIds.map((id) => addrName.get(id) ?? `#${id}`),
  ];
  const filtered = chosen.length > 0;
  const list = jobs.data;
  const items = pagedItemsOf<Job>(list).filter((job) => isId(job.id));

  return (
    <div className="page-wrap">
      <h1 className="page-title">{pageName}</h1>
      <div className="job-toolbar">
        <HydrateApart>
          <JobFilterDrawer path={path} filter={filter} types={typeList} addrs={addrList} />
        </HydrateApart>
        {filtered && (
          <p className="job-active">
            <span>{t("pages.jobs.active")}</span> <span className="job-active-names">{chosen.join("、")}</span>{" "}
            <PageLink to={jobFilterHref(path, { jobTypeIds: [], jobAddrIds: [], size: filter.size })}>{t("pages.jobs.clear")}</PageLink>
          </p>
        )}
      </div>
      {stateInstead(jobs) ??
        (list && (
          <>
            {items.length === 0 ? (
              <p className="page-empty">{t(filtered ? "pages.jobs.emptyFiltered" : "state.empty")}</p>
            ) : (
              <ul className="job-list">
                {items.map((job) => (
                  <li key={job.id} className="job-item">
                    <h2 className="job-item-name" lang={itemLang(job)}>
                      <PageLink to={route.itemPage().href({ id: job.id })}>{textOf(job.name)}</PageLink>
                      <UntranslatedMark item={job} />
                    </h2>
                    <JobFacts job={job} typeName={typeName.get(job.jobTypeId)} addrName={addrName.get(job.jobAddrId)} />
                  </li>
                ))}
              </ul>
            )}
            <Pagination
              path={path}
              paging={filter}
              totalCount={countOf(list.totalCount)}
              totalPageCount={countOf(list.totalPageCount)}
              keep={{ jobTypeIds: filter.jobTypeIds.join(","), jobAddrIds: filter.jobAddrIds.join(",") }}
            />
          </>
        ))}
    </div>
  );
}
