/**
 * The interface language switch in the header. Without JavaScript it is a link to the
 * current URL with `?lang=`, which the server honours. With it, it saves the choice in
 * the `portal_lang` cookie (which the server reads on later visits) and re-renders in
 * the new language without a reload: the language lives in App's state, and the data
 * does not change, so nothing is fetched again (only the English strings, once, if the
 * page came in Chinese).
 */
import { useContext } from "react";
import { useLocation, useSearch } from "wouter";
import { pageAddressOf } from "../../shared/page-address.ts";
import { LANG_COOKIE, type Lang } from "../../shared/page-state.ts";
import { BASE_PATH } from "../../shared/routes.ts";
import { withQuery } from "../../shared/with-query.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { loadMessages } from "../i18n/messages.ts";
import { useT } from "../i18n/use-t.ts";
import { SetLangContext } from "./lang-context.ts";

const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** Remembers the choice for the server (cookie, and the URL when it names a language); App sets <html lang>. */
export function saveLangChoice(lang: Lang): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the site serves.
  document.cookie = `${LANG_COOKIE}=${lang}; path=${BASE_PATH}; max-age=${ONE_YEAR_S}; SameSite=Lax`;
  // A language named in the URL would win over the cookie on reload: name the new one instead.
  const url = new URL(window.location.href);
  if (url.searchParams.has("lang")) {
    url.searchParams.set("lang", lang);
    history.replaceState(history.state, "", url);
  }
}

export function LanguageSwitch() {
  const t = useT();
  const { lang } = usePageState();
  const setLang = useContext(SetLangContext);
  const [location] = useLocation();
  const search = useSearch();
  const next: Lang = lang === "en" ? "zh-CN" : "en";
  // The page's address, not the URL's text: the server renders one HTML for every URL
  // with the same address, so the link must not differ either (or hydration would).
  const address = pageAddressOf(location, new URLSearchParams(search));
  const href = withQuery(BASE_PATH + (address?.path ?? location), { ...address?.query, lang: next });
  const warm = () => void loadMessages(next).catch(() => {});

  return (
    <a
      className="lang-switch"
      href={href}
      hrefLang={next}
      // The other language's strings may not be loaded yet: fetched as the pointer or focus comes near.
      onPointerEnter={warm}
      onFocus={warm}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0) return;
        event.preventDefault();
        const href = event.currentTarget.href;
        loadMessages(next).then(
          () => {
            saveLangChoice(next);
            setLang(next);
          },
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
