/**
 * The pages the audit visits: one of every page type in the route table, with the demo
 * content's items (harness/page-samples.ts), named by their ids, and which of them
 * Lighthouse also measures.
 */
import { readDemoSite, samplePages, siteItems } from "../harness/page-samples.ts";
import type { PageId } from "../shared/routes.ts";

export interface AuditPage {
  name: string;
  /** Path with the base path. */
  path: string;
  /** Lighthouse measures this page too. */
  lighthouse?: boolean;
}

/** The pages Lighthouse measures: the home page, and a list and a detail that most visitors open. */
const MEASURED: ReadonlySet<string> = new Set<PageId>(["home", "newsList", "newsDetail", "jobSocietyList"]);

export function auditPages(): AuditPage[] {
  return samplePages(siteItems(readDemoSite())).map(({ route, path }) => ({
    name: route.id,
    path,
    ...(MEASURED.has(route.id) ? { lighthouse: true } : {}),
  }));
}

/** The two widths of the issue: a small phone and a desktop. */
export const WIDTHS = [375, 1280] as const;
