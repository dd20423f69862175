/** The demo content as the embedded content API orders it: messages newest first, milestones by date, jobs by id. */
import { readFileSync } from "node:fs";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";
import type {
  Author,
  CompanyIntro,
  Founder,
  Job,
  JobAddr,
  JobType,
  Message,
  Milestone,
  Product,
  Service,
  SiteConfig,
} from "../../shared/entities.ts";

export interface DemoSite {
  syscfg: SiteConfig;
  sysauthor: Author;
  company: CompanyIntro;
  news: Message[];
  notices: Message[];
  products: Product[];
  services: Service[];
  founders: Founder[];
  milestones: (Milestone & { id: number })[];
  jobs: Job[];
  jobTypes: JobType[];
  jobAddrs: JobAddr[];
}
export const demo = JSON.parse(readFileSync(DEMO_SITE_FILE, "utf8")) as DemoSite;
export const newestFirst = (list: Message[]) => [...list].sort((a, b) => b.dateTime.localeCompare(a.dateTime) || b.id - a.id);
export const NEWS = newestFirst(demo.news);
export const NOTICES = newestFirst(demo.notices);
export const MILESTONES = [...demo.milestones].sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
export const jobsOf = (type: 1 | 2, typeIds: number[] = [], addrIds: number[] = []) =>
  demo.jobs
    .filter(
      (j) => j.type === type && (!typeIds.length || typeIds.includes(j.jobTypeId)) && (!addrIds.length || addrIds.includes(j.jobAddrId)),
    )
    .sort((a, b) => a.id - b.id);
export const NAME = demo.sysauthor.name;
