/**
 * The languages this site speaks (`PORTAL_LANGS`), the first the content's own language, unprefixed. Set once where
 * a process starts (the server from its configuration, the renderer and the browser from the page's), read by the
 * routes and everything that lists languages (docs/behaviour.md#languages).
 */
import { addressTag, knownLangOf, type Lang } from "./langs.ts";

/** Two languages, as the site spoke before it could speak any number: the pages carry no list then. */
export const DEFAULT_SITE_LANGS: readonly Lang[] = ["zh-CN", "en"];

let site: readonly Lang[] = DEFAULT_SITE_LANGS;
let byTag = new Map<string, Lang>();

export function setSiteLangs(langs: readonly Lang[] | undefined): void {
  const next = langs && langs.length > 0 ? langs : DEFAULT_SITE_LANGS;
  if (next === site && byTag.size > 0) return;
  site = next;
  byTag = new Map(next.slice(1).map((lang) => [addressTag(lang), lang]));
}
setSiteLangs(DEFAULT_SITE_LANGS);

export const siteLangs = (): readonly Lang[] => site;

/** The content's own language: unprefixed, what an untranslated item is shown in. */
export const baseLang = (): Lang => site[0] as Lang;

export const isDefaultSiteLangs = (langs: readonly Lang[]): boolean =>
  langs.length === DEFAULT_SITE_LANGS.length && langs.every((lang, i) => lang === DEFAULT_SITE_LANGS[i]);

/** A prefixed language of this site by its address segment (`zh-tw`), exactly as written. */
export const prefixedLangOf = (segment: string): Lang | undefined => byTag.get(segment);

/** A tag a visitor or a caller gives (`?lang=zh-TW`, or as in addresses, `zh-tw`) as one of this site's languages. */
export function siteLangOf(tag: unknown): Lang | undefined {
  if (typeof tag !== "string") return undefined;
  const lang = knownLangOf(tag);
  return lang && site.includes(lang) && (tag === lang || tag === addressTag(lang)) ? lang : undefined;
}

/** "zh-CN or en", "zh-CN, en, ja or ar": for a 400's message. */
export function langChoices(): string {
  return site.length === 1 ? (site[0] as string) : `${site.slice(0, -1).join(", ")} or ${site.at(-1)}`;
}
