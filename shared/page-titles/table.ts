/** A language's table of page names: every page and home-page section named (page-titles.ts looks names up). */
import type { SectionId } from "../page-titles.ts";
import type { PageId } from "../routes.ts";

export type PageTitles = Readonly<Record<PageId | SectionId, string>>;
