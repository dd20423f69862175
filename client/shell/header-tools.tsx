/**
 * The header's tools: the top menu, the language switch and the search form, one part
 * hydrated when first used (header.tsx); the form is a plain GET form, so it works before.
 */
import { PAGES } from "../../shared/routes.ts";
import { MAX_QUERY_LENGTH } from "../../shared/search.ts";
import { useFormAction } from "../hooks/page-query.ts";
import { SEARCH_MESSAGES } from "../i18n/messages-search.ts";
import { useT } from "../i18n/use-t.ts";
import { Icon } from "./icons.tsx";
import { LanguageSwitch } from "./language.tsx";
import { TopMenu } from "./top-menu.tsx";

export function HeaderTools({ id }: { id: string }) {
  // A box without a layout of its own (display: contents): each stays an item of the header's row.
  return (
    <div id={id} className="header-tools">
      <TopMenu />
      <LanguageSwitch />
      <HeaderSearch />
    </div>
  );
}

/**
 * The search form of every page: a plain GET form, so it needs no script. Its field opens
 * when it has the focus; the button alone (at 768 px or less there is no field) opens the
 * search page and its own form.
 */
function HeaderSearch() {
  const t = useT(SEARCH_MESSAGES);
  const formAction = useFormAction();
  return (
    // biome-ignore lint/a11y/useSemanticElements: the contract names a search form, which <search> would only wrap
    <form role="search" aria-label={t("search.header")} className="header-search" method="get" action={formAction(PAGES.search.path)}>
      <label htmlFor="header-search-q" className="visually-hidden">
        {t("search.headerLabel")}
      </label>
      <input
        id="header-search-q"
        className="header-search-input"
        type="search"
        name="q"
        maxLength={MAX_QUERY_LENGTH}
        enterKeyHint="search"
      />
      <button type="submit" className="header-search-button">
        <Icon size={18} className="icon-search">
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </Icon>
        <span className="visually-hidden">{t("search.submit")}</span>
      </button>
    </form>
  );
}
