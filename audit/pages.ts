/**
 * The pages the audit visits: one of every page type (docs/behaviour.md#routes), with the demo
 * content's items (the first one of each kind a visitor would open), and which of them
 * Lighthouse also measures.
 */
import { readFileSync } from "node:fs";
import { DEMO_SITE_FILE } from "../server/project-root.ts";
import type { Job, Message, Product, Service } from "../shared/entities.ts";
import { pageHref } from "../shared/routes.ts";

export interface AuditPage {
  name: string;
  /** Path with the base path. */
  path: string;
  /** Lighthouse measures this page too. */
  lighthouse?: boolean;
}

interface DemoSite {
  news: Message[];
  notices: Message[];
  products: Product[];
  services: Service[];
  jobs: Job[];
}

/** The newest item first, as the list pages show them. */
const newest = (messages: Message[]) => [...messages].sort((a, b) => b.dateTime.localeCompare(a.dateTime) || b.id - a.id)[0]?.id;
const first = <T extends { id: number }>(items: T[]) =>
  items.reduce<number | undefined>((low, item) => Math.min(low ?? item.id, item.id), undefined);

export function auditPages(siteFile = DEMO_SITE_FILE): AuditPage[] {
  const demo = JSON.parse(readFileSync(siteFile, "utf8")) as DemoSite;
  const ids = {
    news: newest(demo.news),
    notice: newest(demo.notices),
    product: first(demo.products),
    service: first(demo.services),
    society: first(demo.jobs.filter((job) => job.type === 1)),
    school: first(demo.jobs.filter((job) => job.type !== 1)),
  };
  for (const [kind, id] of Object.entries(ids)) if (id === undefined) throw new Error(`the demo site has no ${kind} item`);
  return [
    { name: "home", path: pageHref("home"), lighthouse: true },
    { name: "about", path: pageHref("about") },
    { name: "founders", path: pageHref("founders") },
    { name: "milestones", path: pageHref("milestones") },
    { name: "news list", path: pageHref("newsList"), lighthouse: true },
    { name: "news detail", path: pageHref("newsDetail", ids.news), lighthouse: true },
    { name: "notice list", path: pageHref("noticeList") },
    { name: "notice detail", path: pageHref("noticeDetail", ids.notice) },
    { name: "product", path: pageHref("productDetail", ids.product) },
    { name: "service", path: pageHref("serviceDetail", ids.service) },
    { name: "social jobs", path: pageHref("jobSocietyList"), lighthouse: true },
    { name: "campus jobs", path: pageHref("jobSchoolList") },
    { name: "social job detail", path: pageHref("jobSocietyDetail", ids.society) },
    { name: "campus job detail", path: pageHref("jobSchoolDetail", ids.school) },
  ];
}

/** The two widths of the issue: a small phone and a desktop. */
export const WIDTHS = [375, 1280] as const;
