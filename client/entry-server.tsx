/** The server renderer: a page's HTML and head from the state the server loaded. */
import { renderToString } from "react-dom/server";
import type { RenderInput, RenderResult } from "../shared/page-state.ts";
import { BASE_PATH, matchPage } from "../shared/routes.ts";
import { App } from "./app.tsx";
import { loadLaterParts } from "./hydration/later-part.tsx";
import { loadMessages, MESSAGES_EN_FILE } from "./i18n/messages.ts";
import { translatorFor } from "./i18n/use-t.ts";
import { loadPage } from "./pages/registry.ts";
import { documentHead } from "./server-head/document-head.ts";
import { pageModuleFile } from "./server-head/page-module-file.ts";

export async function render({ path, search, state }: RenderInput): Promise<RenderResult> {
  const match = matchPage(path, new URLSearchParams(search));
  const [page] = await Promise.all([match && loadPage(match.route), loadMessages(state.lang)]);
  // The parts the browser hydrates later are rendered whole here.
  await loadLaterParts();
  const appHtml = renderToString(<App state={state} ssrPath={BASE_PATH + path} ssrSearch={search} />);
  const pageFile = page && (await pageModuleFile(page));
  const modules = [...(pageFile ? [pageFile] : []), ...(state.lang === "en" ? [MESSAGES_EN_FILE] : [])];
  return { appHtml, head: documentHead({ match, search, state }, translatorFor(state.lang)), modules };
}
