/** The header's tools: the top menu, the language switch and the search form, hydrated when first used. */
import { PAGES } from "../../shared/routes.ts";
import { MAX_QUERY_LENGTH } from "../../shared/search-query.ts";
import { useFormAction } from "../hooks/page-query.ts";
import { SEARCH_MESSAGES } from "../i18n/messages-search.ts";
import { useT } from "../i18n/use-t.ts";
import { HoleWhenApart } from "../reused-parts/part-mode.tsx";
import { SearchIcon } from "./icons.tsx";
import { LanguageSwitch } from "./language.tsx";
import { TopMenu } from "./top-menu.tsx";

export function HeaderTools({ id }: { id: string }) {
  // display: contents: each stays an item of the header's row.
  return (
    <div id={id} className="header-tools">
      <TopMenu />
      {import.meta.env.SSR ? <HoleWhenApart inPlace={LanguageSwitch} /> : <LanguageSwitch />}
      <HeaderSearch />
    </div>
  );
}

function HeaderSearch() {
  const t = useT(SEARCH_MESSAGES);
  const formAction = useFormAction();
  return (
    // biome-ignore lint/a11y/useSemanticElements: the contract names a search form, which <search> would only wrap
    <form
      role="search"
      aria-label={t("search.header")}
      className="header-search"
      method="get"
      action={formAction(PAGES.search.path)}
      onSubmit={openFieldWhenEmpty}
    >
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
        <SearchIcon />
        <span className="visually-hidden">{t("search.submit")}</span>
      </button>
    </form>
  );
}

/**
 * A pointer's press on the button gives the folded field no chance to be typed in: an empty search
 * opens it instead. Where the field is not shown at all (narrow), the button opens the search page.
 */
function openFieldWhenEmpty(event: React.FormEvent<HTMLFormElement>) {
  const field = event.currentTarget.elements.namedItem("q");
  if (!(field instanceof HTMLInputElement) || field.value.trim() !== "" || field.getClientRects().length === 0) return;
  event.preventDefault();
  field.focus();
}
