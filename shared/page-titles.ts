/**
 * A page's name in any of the site's languages. Chinese and English are on each route, as a two-language site
 * needs them; every other language's names are a table of its own (page-titles/<tag>.ts), which the browser and
 * the renderer load with that language's interface strings and hand over here before they render in it, so the
 * home page's JavaScript holds no page names of a language it does not show (docs/behaviour.md#languages).
 */
import type { Lang } from "./langs.ts";

/** The languages whose page names are on the routes themselves. */
export type RouteTitleLang = "zh-CN" | "en";

/** The sections of the home page a breadcrumb trail leads to. */
export type SectionId = "productList" | "serviceList";

/** Typed in full where each language's table is written (page-titles/table.ts); here, names by id. */
type TitleTable = Readonly<Record<string, string>>;

/** A page or a section, named on its route or crumb in Chinese and English. */
type Named = { title: Readonly<Record<RouteTitleLang, string>> } & ({ id: string } | { section: SectionId });

const tables = new Map<Lang, TitleTable>();

export function addPageTitles(lang: Lang, titles: TitleTable): void {
  tables.set(lang, titles);
}

const onRoute = (lang: Lang): lang is RouteTitleLang => lang === "zh-CN" || lang === "en";

/** English until the language's table is in: a page renders in a language only once its strings are loaded. */
export const pageTitle = (named: Named, lang: Lang): string =>
  onRoute(lang) ? named.title[lang] : (tables.get(lang)?.["id" in named ? named.id : named.section] ?? named.title.en);
