/** The default home layout's sections; their anchors are what the menu's content-type entries jump to. */

import { useMemo } from "react";
import type { Partner } from "../../shared/entities.ts";
import { home } from "../../shared/pages/home.ts";
import { itemsOf } from "../data/content-values.ts";
import { useApi } from "../data/use-api.ts";
import { LaterPart, partCode } from "../hydration/later-part.tsx";
import { HOME_MESSAGES } from "../i18n/messages-home.ts";
import { useT } from "../i18n/use-t.ts";
import { renderResult } from "./home-helpers.tsx";
import { MessageColumn } from "./message-column.tsx";
import { type Offering, OfferingGrid } from "./offering-grid.tsx";
import { PARTNER_MAX } from "./partner-rows.ts";

const PARTNER_WALL_ID = "partner-wall";

const PARTNER_WALL = partCode(() => import("./partner-wall.tsx").then((module) => module.PartnerWall));

export function DefaultSections() {
  const t = useT(HOME_MESSAGES);
  const products = useApi<Offering[]>(home.keys.products());
  const services = useApi<Offering[]>(home.keys.services());
  const news = useApi<unknown>(home.keys.news());
  const notices = useApi<unknown>(home.keys.notices());
  const partners = useApi<Partner[]>(home.keys.partners());
  // The same list while the data is the same: a new one would have the wall hydrated at once.
  const partnerItems = useMemo(() => itemsOf<Partner>(partners.data, PARTNER_MAX), [partners.data]);
  const empty = <p className="home-empty">{t("state.empty")}</p>;

  return (
    <>
      <section id="product-list" className="home-section" aria-labelledby="product-list-title">
        <h2 id="product-list-title">{t("home.products")}</h2>
        {renderResult(products, (data) => {
          const items = itemsOf<Offering>(data);
          return items.length ? <OfferingGrid items={items} kind="product" /> : empty;
        })}
      </section>
      <section id="service-list" className="home-section home-section-alt" aria-labelledby="service-list-title">
        <h2 id="service-list-title">{t("home.services")}</h2>
        {renderResult(services, (data) => {
          const items = itemsOf<Offering>(data);
          return items.length ? <OfferingGrid items={items} kind="service" /> : empty;
        })}
      </section>
      <div id="message-list" className="home-section home-message-columns">
        <MessageColumn kind="news" result={news} />
        <MessageColumn kind="notice" result={notices} />
      </div>
      <section className="home-section home-section-alt home-partners" aria-labelledby="partner-list-title">
        <h2 id="partner-list-title">{t("home.partners")}</h2>
        {renderResult(partners, () =>
          partnerItems.length ? (
            <LaterPart code={PARTNER_WALL} elementId={PARTNER_WALL_ID} props={{ id: PARTNER_WALL_ID, partners: partnerItems }} />
          ) : (
            empty
          ),
        )}
      </section>
    </>
  );
}
