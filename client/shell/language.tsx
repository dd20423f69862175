/**
 * The language switch: links to the same page in each of the site's other languages, each followed once its
 * strings and data are in (docs/behaviour.md#languages). Two languages: one link; more: a list behind a button.
 */
import { preload } from "swr";
import { useLocation, useSearch } from "wouter";
import { LANG_NAMES } from "../../shared/lang-names.ts";
import type { Lang } from "../../shared/langs.ts";
import { pageAddressOf } from "../../shared/page-address.ts";
import { keyInLang, pageKeys, shellKeys } from "../../shared/page-data.ts";
import { contentLangOf } from "../../shared/page-state.ts";
import { BASE_PATH, langPath, PAGES } from "../../shared/routes.ts";
import { siteLangs } from "../../shared/site-langs.ts";
import { withQuery } from "../../shared/with-query.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { loadMessages } from "../i18n/messages.ts";
import { HEADER_MESSAGES } from "../i18n/messages-header.ts";
import { useT } from "../i18n/use-t.ts";
import { fetchPageData } from "../page-switch.tsx";

/** Each language in its own name; Simplified Chinese is plain 中文 unless Traditional is offered too. */
const ownName = (lang: Lang, langs: readonly Lang[]): string => (lang === "zh-CN" && !langs.includes("zh-TW") ? "中文" : LANG_NAMES[lang]);

type LinkProps = Pick<React.ComponentProps<"a">, "href" | "hrefLang" | "onPointerEnter" | "onFocus" | "onClick">;

function useLangLink(): (next: Lang) => LinkProps {
  const { config } = usePageState();
  const [location, navigate] = useLocation();
  const search = useSearch();
  // The page's address, not the URL's text: the server renders one HTML per address, so the link must match it.
  const address = pageAddressOf(location, new URLSearchParams(search));

  return (next) => {
    const to = address ? withQuery(langPath(address.path, next), address.query) : PAGES.home.href({ lang: next });
    const warm = () => void loadMessages(next).catch(() => {});
    const ready = (): Promise<unknown> => {
      const contentLang = contentLangOf(next, config);
      const keys = [...shellKeys(config.classify), ...(address ? pageKeys(address.match, new URLSearchParams(search)) : [])];
      // A failed read shows on the page, as after any navigation.
      const data = keys.map((key) => preload(keyInLang(key, contentLang), fetchPageData).catch(() => {}));
      return Promise.all([loadMessages(next), ...data]);
    };
    return {
      href: BASE_PATH + to,
      hrefLang: next,
      onPointerEnter: warm,
      onFocus: warm,
      onClick: (event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0) return;
        event.preventDefault();
        const href = event.currentTarget.href;
        // A choice made: the list closes, as the page it opened over is about to change.
        event.currentTarget.closest("details")?.removeAttribute("open");
        ready().then(
          () => navigate(to),
          // Without its strings, the link does what it does without JavaScript.
          () => window.location.assign(href),
        );
      },
    };
  };
}

export function LanguageSwitch() {
  const t = useT(HEADER_MESSAGES);
  const { lang } = usePageState();
  const linkTo = useLangLink();
  const langs = siteLangs();
  if (langs.length <= 2) {
    const next = langs.find((one) => one !== lang) ?? lang;
    return (
      <a className="lang-switch" {...linkTo(next)}>
        <span className="visually-hidden">{t("shell.lang.label")}</span>
        <span lang={next}>{ownName(next, langs)}</span>
      </a>
    );
  }
  // A disclosure: a summary that opens a list of links, each language in its own name; without JavaScript too.
  return (
    <details className="lang-menu">
      <summary className="lang-switch">
        <span className="visually-hidden">{t("shell.lang.label")}</span>
        <span lang={lang}>{ownName(lang, langs)}</span>
      </summary>
      <ul className="lang-menu-list">
        {langs.map((one) => (
          <li key={one}>
            {one === lang ? (
              <span className="lang-menu-link" aria-current="true" lang={one}>
                {ownName(one, langs)}
              </span>
            ) : (
              <a className="lang-menu-link" lang={one} {...linkTo(one)}>
                {ownName(one, langs)}
              </a>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
