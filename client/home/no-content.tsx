/** The home page of a site with nothing published: one clear statement instead of a row of empty sections. */
import { keys } from "../../shared/data-keys.ts";
import { isEmptyPayload } from "../../shared/envelope.ts";
import { home } from "../../shared/pages/home.ts";
import { itemsOf, pagedItemsOf, textOf } from "../data/content-values.ts";
import { type ApiResult, useApi } from "../data/use-api.ts";
import { HOME_MESSAGES } from "../i18n/messages-home.ts";
import { useT } from "../i18n/use-t.ts";

const settled = (result: ApiResult<unknown>) => !result.isLoading && !result.error;

/** True once every call of the home page has answered, each with nothing: no site config, no item, no home html. */
export function useNoContent(): boolean {
  const site = useApi<unknown>(keys.syscfg());
  const homeHtml = useApi<{ html?: unknown }>(home.keys.html());
  const lists = [
    useApi<unknown>(home.keys.slides()),
    useApi<unknown>(home.keys.products()),
    useApi<unknown>(home.keys.services()),
    useApi<unknown>(home.keys.partners()),
  ];
  const paged = [useApi<unknown>(home.keys.news()), useApi<unknown>(home.keys.notices())];
  return (
    [site, homeHtml, ...lists, ...paged].every(settled) &&
    isEmptyPayload(site.data) &&
    !textOf(homeHtml.data?.html) &&
    lists.every((list) => itemsOf(list.data).length === 0) &&
    paged.every((list) => pagedItemsOf(list.data).length === 0)
  );
}

export function NoContentYet({ name }: { name: string }) {
  const t = useT(HOME_MESSAGES);
  return (
    <div className="home">
      <h1 className="visually-hidden">{name}</h1>
      <section className="home-no-content" aria-labelledby="home-no-content-title">
        <h2 id="home-no-content-title">{t("home.noContent")}</h2>
        <p>{t("home.noContentHint")}</p>
      </section>
    </div>
  );
}
