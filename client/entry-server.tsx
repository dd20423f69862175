/** The server renderer: a page's HTML and head from the state the server loaded. */

import { renderToString } from "react-dom/server";
import type { RenderInput, RenderResult } from "../shared/page-state.ts";
import { BASE_PATH, matchPage } from "../shared/routes.ts";
import { setSiteLangs } from "../shared/site-langs.ts";
import { App } from "./app.tsx";
import { loadLaterParts } from "./hydration/later-part.tsx";
import { loadMessages, messagesFile } from "./i18n/messages.ts";
import { translatorFor } from "./i18n/use-t.ts";
import { loadPage } from "./pages/registry.ts";
import { renderWithKeptParts } from "./reused-parts/kept-parts.tsx";
import { PartModeContext } from "./reused-parts/part-mode.tsx";
import { documentHead } from "./server-head/document-head.ts";
import { pageModuleFile } from "./server-head/page-module-file.ts";

export async function render({ path, search, state }: RenderInput): Promise<RenderResult> {
  // This bundle holds its own copy of the routes: they read the site's languages from here.
  setSiteLangs(state.config.langs);
  const match = matchPage(path, new URLSearchParams(search));
  const [page] = await Promise.all([match && loadPage(match.route), loadMessages(state.lang)]);
  // The parts the browser hydrates later are rendered whole here.
  await loadLaterParts();
  const { html: appHtml, parts } = renderWithKeptParts({ path, search, state }, (mode) =>
    renderToString(
      <PartModeContext value={mode}>
        <App state={state} ssrPath={BASE_PATH + path} ssrSearch={search} />
      </PartModeContext>,
    ),
  );
  const pageFile = page && (await pageModuleFile(page));
  const strings = messagesFile(state.lang);
  const modules = [...(pageFile ? [pageFile] : []), ...(strings ? [strings] : [])];
  return { appHtml, head: documentHead({ match, search, state }, translatorFor(state.lang)), modules, parts };
}
