/** Content shown in a language other than the page's is marked `lang="zh-CN"` (docs/behaviour.md#languages). */

import { isUntranslated, type Lang } from "../../shared/page-state.ts";
import { baseLang } from "../../shared/site-langs.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { useT } from "../i18n/use-t.ts";

export function useItemLang(): (item: unknown) => Lang | undefined {
  const { lang, config } = usePageState();
  return (item) => (lang !== baseLang() && (!config.contentLang || isUntranslated(item)) ? baseLang() : undefined);
}

export function ChineseOnlyNotice({ item }: { item: unknown }) {
  const itemLang = useItemLang();
  const t = useT();
  return itemLang(item) ? (
    <p className="lang-notice" role="note">
      {t("shell.lang.chineseOnly")}
    </p>
  ) : null;
}

/** Beside an item in a list: the item is shown in the content's own language, said in the page's (docs/behaviour.md#languages). */
export function UntranslatedMark({ item }: { item: unknown }) {
  const itemLang = useItemLang();
  const { lang } = usePageState();
  const t = useT();
  return itemLang(item) ? (
    <span className="untranslated-mark" lang={lang}>
      {t("shell.lang.untranslated")}
    </span>
  ) : null;
}
