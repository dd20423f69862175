/**
 * Content shown in a language other than the page's (docs/behaviour.md#languages): on an
 * English page, an item the upstream has no translation of (`"lang": "zh-CN"`), or every
 * item when content is not asked for by language, is marked `lang="zh-CN"` and, where it
 * is the page's main content, announced in English.
 */
import { isUntranslated, type Lang } from "../../shared/page-state.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { useT } from "../i18n/use-t.ts";

/** The `lang` attribute an item's content needs on this page: "zh-CN" when it is Chinese on an English page, else none. */
export function useItemLang(): (item: unknown) => Lang | undefined {
  const { lang, config } = usePageState();
  return (item) => (lang === "en" && (!config.contentLang || isUntranslated(item)) ? "zh-CN" : undefined);
}

/** Says, in the page's language, that the page's main item is only available in Chinese. */
export function ChineseOnlyNotice({ item }: { item: unknown }) {
  const itemLang = useItemLang();
  const t = useT();
  return itemLang(item) ? (
    <p className="lang-notice" role="note">
      {t("shell.lang.chineseOnly")}
    </p>
  ) : null;
}
