/**
 * The document title (SPEC section 2): on the home page the company name plus its full
 * name; elsewhere the name plus the page title (a detail page's own title when known;
 * the founders page's is the full name plus the word for founders).
 */

import { detailKey, keys } from "../../shared/data-keys.ts";
import type { Author, Job, Message, Product } from "../../shared/entities.ts";
import type { RouteMatch } from "../../shared/routes.ts";
import { textOf } from "../data/content-values.ts";
import type { Translate } from "../i18n/use-t.ts";

export type ReadPayload = <T>(key: string) => T | undefined;

export function pageHeading(match: RouteMatch, read: ReadPayload, t: Translate): string {
  const id = match.route.id;
  if (id === "founders") {
    const word = t("page.founders");
    // 杭州某某有限公司创始团队, but "Acme Ltd. Founders".
    return [textOf(read<Author>(keys.sysauthor())?.fname), word].filter(Boolean).join(/^[A-Za-z]/.test(word) ? " " : "");
  }
  const detail = detailKey(match);
  if (detail) {
    const item = read<Partial<Message & Product & Job>>(detail);
    const own = textOf(item?.title) || textOf(item?.name);
    if (own) return own;
  }
  return t(`page.${id}`);
}

export function documentTitle(match: RouteMatch | null, read: ReadPayload, t: Translate): string {
  const author = read<Author>(keys.sysauthor());
  const name = textOf(author?.name);
  if (!match) return [name, t("state.notFound")].filter(Boolean).join(" - ");
  if (match.route.id === "home") return [name, textOf(author?.fname)].filter(Boolean).join(" - ");
  return [name, pageHeading(match, read, t)].filter(Boolean).join(" - ");
}
