/** The language switch: a link to the same page in the other language, followed once its strings and data are in (docs/behaviour.md#languages). */
import { preload } from "swr";
import { useLocation, useSearch } from "wouter";
import { pageAddressOf } from "../../shared/page-address.ts";
import { keyInLang, pageKeys, shellKeys } from "../../shared/page-data.ts";
import { contentLangOf, type Lang } from "../../shared/page-state.ts";
import { BASE_PATH, langPath, PAGES } from "../../shared/routes.ts";
import { withQuery } from "../../shared/with-query.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { loadMessages } from "../i18n/messages.ts";
import { HEADER_MESSAGES } from "../i18n/messages-header.ts";
import { useT } from "../i18n/use-t.ts";
import { fetchPageData } from "../page-switch.tsx";

export function LanguageSwitch() {
  const t = useT(HEADER_MESSAGES);
  const { lang, config } = usePageState();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const next: Lang = lang === "en" ? "zh-CN" : "en";
  // The page's address, not the URL's text: the server renders one HTML per address, so the link must match it.
  const address = pageAddressOf(location, new URLSearchParams(search));
  const to = address ? withQuery(langPath(address.path, next), address.query) : PAGES.home.href({ lang: next });
  const warm = () => void loadMessages(next).catch(() => {});

  const ready = (): Promise<unknown> => {
    const contentLang = contentLangOf(next, config);
    const keys = [...shellKeys(config.classify), ...(address ? pageKeys(address.match, new URLSearchParams(search)) : [])];
    // A failed read shows on the page, as after any navigation.
    const data = keys.map((key) => preload(keyInLang(key, contentLang), fetchPageData).catch(() => {}));
    return Promise.all([loadMessages(next), ...data]);
  };

  return (
    <a
      className="lang-switch"
      href={BASE_PATH + to}
      hrefLang={next}
      onPointerEnter={warm}
      onFocus={warm}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0) return;
        event.preventDefault();
        const href = event.currentTarget.href;
        ready().then(
          () => navigate(to),
          // Without its strings, the link does what it does without JavaScript.
          () => window.location.assign(href),
        );
      }}
    >
      <span className="visually-hidden">{t("shell.lang.label")}</span>
      <span lang={next}>{t("shell.lang.other")}</span>
    </a>
  );
}
