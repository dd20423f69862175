/** The document title (docs/behaviour.md#page-head). */

import { detailKey, keys } from "../shared/data-keys.ts";
import type { Author, Job, Message, Product } from "../shared/entities.ts";
import type { Lang } from "../shared/page-state.ts";
import { pageTitle } from "../shared/page-titles.ts";
import { isHome, type RouteMatch } from "../shared/routes.ts";
import { textOf } from "./data/content-values.ts";
import type { Translate } from "./i18n/use-t.ts";

export type ReadPayload = <T>(key: string) => T | undefined;

export function pageHeading(match: RouteMatch, read: ReadPayload, lang: Lang): string {
  const { route } = match;
  if (route.headingWithFullName) {
    const word = pageTitle(route, lang);
    // 杭州某某有限公司创始团队, but "Acme Ltd. Founders".
    return [textOf(read<Author>(keys.sysauthor())?.fname), word].filter(Boolean).join(/^[A-Za-z]/.test(word) ? " " : "");
  }
  const detail = detailKey(match);
  if (detail) {
    const item = read<Partial<Message & Product & Job>>(detail);
    const own = textOf(item?.title) || textOf(item?.name);
    if (own) return own;
  }
  return pageTitle(route, lang);
}

/** `notFound`: the page answers 404 (an item the upstream does not have), so its title says so, not the page type's name. */
export function documentTitle(match: RouteMatch | null, read: ReadPayload, t: Translate, lang: Lang, notFound = false): string {
  const author = read<Author>(keys.sysauthor());
  const name = textOf(author?.name);
  if (!match || notFound) return [name, t("title.notFound")].filter(Boolean).join(" - ");
  if (isHome(match.route)) return [name, textOf(author?.fname)].filter(Boolean).join(" - ");
  return [name, pageHeading(match, read, lang)].filter(Boolean).join(" - ");
}
