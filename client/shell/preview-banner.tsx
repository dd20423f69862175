/** Says a page is an editor's preview, with the link that ends it (docs/behaviour.md#preview); a plain link, so it works without JavaScript. */
import { useLocation, useSearch } from "wouter";
import { previewExitLink } from "../../shared/preview.ts";
import { BASE_PATH } from "../../shared/routes.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { useT } from "../i18n/use-t.ts";

export function PreviewBanner() {
  const t = useT();
  const [location] = useLocation();
  const search = useSearch();
  if (!usePageState().preview) return null;
  const path = `${BASE_PATH}${location}${search ? `?${search}` : ""}`;
  return (
    <section className="preview-banner" aria-label={t("shell.preview.label")}>
      <p>
        {t("shell.preview.text")} <a href={previewExitLink(path)}>{t("shell.preview.exit")}</a>
      </p>
    </section>
  );
}
