/** The fixed header: the company's logo and short name (linking home), the top menu, the language switch and the loading bar. */

import { keys } from "../../shared/data-keys.ts";
import type { Author } from "../../shared/entities.ts";
import { HOME_PATH } from "../../shared/routes.ts";
import { ResponsiveImg, showsImage } from "../components/responsive-img.tsx";
import { textOf } from "../data/content-values.ts";
import { useApi } from "../data/use-api.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoadingActive } from "../routing/navigation-progress.ts";
import { PageLink } from "../routing/page-link.tsx";
import { LanguageSwitch } from "./language.tsx";
import { TopMenu } from "./top-menu.tsx";

export function Header() {
  const t = useT();
  const author = useApi<Partial<Author>>(keys.sysauthor()).data;
  const loading = useLoadingActive();
  const name = textOf(author?.name);
  const logo = textOf(author?.logo);
  return (
    <header className="site-header">
      <div className={loading ? "nav-progress is-active" : "nav-progress"} aria-hidden="true" />
      <div className="header-inner">
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
        <TopMenu />
        <LanguageSwitch />
      </div>
    </header>
  );
}
