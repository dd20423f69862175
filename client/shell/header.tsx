/** The fixed header; the menu and the switch work from their server HTML until first used (docs/behaviour.md#the-shell). */
import { useRef, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { keys } from "../../shared/data-keys.ts";
import type { Author } from "../../shared/entities.ts";
import { HOME_PATH } from "../../shared/routes.ts";
import { ResponsiveImg, showsImage } from "../components/responsive-img.tsx";
import { textOf } from "../data/content-values.ts";
import { useApi } from "../data/use-api.ts";
import { LaterPart, partCode } from "../hydration/later-part.tsx";
import { wasNeeded } from "../hydration/when-needed.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoadingActive } from "../routing/navigation-progress.ts";
import { PageLink } from "../routing/page-link.tsx";
import { useHeaderFit } from "./use-header-fit.ts";

const TOOLS_ID = "header-tools";
const TOOLS = partCode(() => import("./header-tools.tsx").then((module) => module.HeaderTools));

/** The visitor moved to another page before using the tools, whose server HTML still points at the page they left. */
function useToolsAfresh(): boolean {
  const [path] = useLocation();
  const here = `${path}?${useSearch()}`;
  const [first] = useState(here);
  const [afresh, setAfresh] = useState<boolean>();
  if (afresh !== undefined || here === first) return afresh ?? false;
  const now = !wasNeeded(TOOLS_ID);
  setAfresh(now);
  return now;
}

export function Header() {
  const t = useT();
  const author = useApi<Partial<Author>>(keys.sysauthor()).data;
  const loading = useLoadingActive();
  const toolsAfresh = useToolsAfresh();
  const inner = useRef<HTMLDivElement>(null);
  const fit = useHeaderFit(inner);
  const name = textOf(author?.name);
  const logo = textOf(author?.logo);
  return (
    <header className="site-header">
      <div className={loading ? "nav-progress is-active" : "nav-progress"} aria-hidden="true" />
      <div className="header-inner" ref={inner} data-fit={fit}>
        {/* The name is the link's text (the logo's alt stays empty); without a name, the logo or the text says "home". */}
        <PageLink to={HOME_PATH} className={showsImage(logo) ? "brand has-logo" : "brand"}>
          {showsImage(logo) && (
            <ResponsiveImg
              className="brand-logo"
              src={logo}
              alt={name ? "" : t("shell.home")}
              width={150}
              height={40}
              box={[150, 150]}
              sizes="150px"
            />
          )}
          {(name || !showsImage(logo)) && <span className="brand-name">{name || t("shell.home")}</span>}
        </PageLink>
        <LaterPart key={toolsAfresh ? "rendered" : "hydrated"} code={TOOLS} elementId={TOOLS_ID} when="used" props={{ id: TOOLS_ID }} />
      </div>
    </header>
  );
}
