/** The home page: the carousel, then the default sections or the custom layout's home html (docs/behaviour.md#home-page). */
import { useRef } from "react";
import { keys } from "../../shared/data-keys.ts";
import type { Author, HomeHtml, SiteConfig, Slide } from "../../shared/entities.ts";
import { HOME_CONTENT_ID, HOME_CUSTOM_ID, homeScriptBody } from "../../shared/home-script.ts";
import { itemsOf, textOf } from "../data/content-values.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { useApi } from "../data/use-api.ts";
import { DefaultSections } from "../home/default-sections.tsx";
import { HomeCarousel, MAX_SLIDES } from "../home/home-carousel.tsx";
import { isCustomLayout, renderResult } from "../home/home-helpers.tsx";
import { NoContentYet, useNoContent } from "../home/no-content.tsx";
import { useHomeScript } from "../home/use-home-script.ts";
import { usePageName } from "../hooks/use-page-title.ts";
import { HydrateApart } from "../hydration/hydrate-apart.tsx";
import type { PageProps } from "./page-props.ts";

export default function HomePage({ match }: PageProps<"home">) {
  const pageName = usePageName(match.route);
  const { config } = usePageState();
  const site = useApi<SiteConfig>(keys.syscfg());
  const author = useApi<Author>(keys.sysauthor());
  const slides = useApi<Slide[]>(match.route.keys.slides());
  const custom = isCustomLayout(site.data);
  const homeHtml = useApi<HomeHtml>(match.route.keys.html());
  const html = typeof homeHtml.data?.html === "string" ? homeHtml.data.html : "";
  const script = homeScriptBody(html);
  const content = useRef<HTMLDivElement>(null);
  useHomeScript(custom && config.homeScript ? script : undefined, content);

  const noContent = useNoContent();
  if (noContent) return <NoContentYet name={pageName} />;

  return (
    <div className="home">
      <h1 className="visually-hidden">{textOf(author.data?.fname) || textOf(author.data?.name) || pageName}</h1>
      <HydrateApart>
        {renderResult(slides, (data) => (
          <HomeCarousel slides={itemsOf<Slide>(data, MAX_SLIDES)} />
        ))}
      </HydrateApart>
      <div id={HOME_CONTENT_ID} ref={content}>
        {!custom && (
          <HydrateApart>
            <DefaultSections />
          </HydrateApart>
        )}
      </div>
      {custom &&
        (homeHtml.error ? (
          <div id={HOME_CUSTOM_ID}>{renderResult(homeHtml, () => null)}</div>
        ) : (
          <div
            id={HOME_CUSTOM_ID}
            className="home-custom"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server as it entered the cache; a script value is never markup
            dangerouslySetInnerHTML={script === undefined && html ? { __html: html } : undefined}
          />
        ))}
    </div>
  );
}
