import type { Job } from "../../../shared/entities.ts";
import { textOf } from "../../data/content-values.ts";
import { PAGES_MESSAGES } from "../../i18n/messages-pages.ts";
import { useT } from "../../i18n/use-t.ts";

/** Salary, job type and address of a job, as in the list and on its detail page. */
export function JobFacts({ job, typeName, addrName }: { job: Job; typeName: string | undefined; addrName: string | undefined }) {
  const t = useT(PAGES_MESSAGES);
  return (
    <dl className="job-facts">
      <div>
        <dt>{t("pages.jobs.salary")}</dt>
        <dd className="job-salary">{textOf(job.salary) || t("pages.jobs.unknown")}</dd>
      </div>
      <div>
        <dt>{t("pages.jobs.type")}</dt>
        <dd>{typeName ?? t("pages.jobs.unknown")}</dd>
      </div>
      <div>
        <dt>{t("pages.jobs.addr")}</dt>
        <dd>{addrName ?? t("pages.jobs.unknown")}</dd>
      </div>
    </dl>
  );
}
