// Loads every answer a page needs, in parallel, through the API cache (in-process), and decides the page's
// status (docs/behaviour.md#page-status).

import { payloadKindOf } from "../../shared/call-table.ts";
import { translationKey } from "../../shared/data-keys.ts";
import { isEmptyPayload, payloadOf } from "../../shared/envelope.ts";
import { detailKey, embeddedPayload, keyInLang, pageKeys, shellKeys } from "../../shared/page-data.ts";
import { contentLangOf, type PageState, type PublicConfig } from "../../shared/page-state.ts";
import type { RouteMatch } from "../../shared/routes.ts";
import { baseLang, siteLangs } from "../../shared/site-langs.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import { cacheTagsOfKey, unionOfTags } from "../cache/cache-tags.ts";
import { jsonOf } from "../cache/response-cache.ts";
import { describeError } from "../http/errors.ts";
import { hasTranslation, otherVersionsOf } from "../langs/other-versions.ts";

interface LoadedPage {
  state: PageState;
  status: 200 | 404 | 502 | 504;
  /** How long every answer the page was built from stays fresh: the most a rendering of it may be kept. */
  freshForMs: number;
  tags: string[];
}

/** `read` is the API reader's `get`, or its `current` for a render no visitor waits on. No match: the not-found page. */
export async function loadPageState(
  read: ApiReader["get"],
  match: RouteMatch | null,
  query: URLSearchParams,
  config: PublicConfig,
  lang: PageState["lang"],
): Promise<LoadedPage> {
  const keys = [...new Set([...shellKeys(config.classify), ...(match ? pageKeys(match, query) : [])])];
  // Asked for in the page's content language; embedded under the keys the page reads them by.
  const contentLang = contentLangOf(lang, config);
  const mainKey = match ? translationKey(match) : undefined;
  // A page's hreflang set needs to know which other languages its item exists in: a detail's from each language's
  // list, shared by every detail page of its kind (docs/behaviour.md#which-versions-exist). Two languages: one, on the default's page.
  const others = config.contentLang && mainKey ? siteLangs().filter((one) => one !== baseLang() && one !== lang) : [];
  const [outcomes, inOthers] = await Promise.all([
    Promise.allSettled(keys.map((key) => read(keyInLang(key, contentLang)))),
    match && mainKey && others.length > 0 ? otherVersionsOf(read, match, mainKey, keyInLang(mainKey, contentLang), others) : undefined,
  ]);
  const state: PageState = { lang, translated: false, config, fallback: {}, failures: {} };
  let freshForMs = Number.POSITIVE_INFINITY;

  outcomes.forEach((outcome, index) => {
    const key = keys[index] as string;
    if (outcome.status === "rejected") {
      freshForMs = 0;
      state.failures[key] = describeError(outcome.reason).status === 504 ? 504 : 502;
      return;
    }
    freshForMs = Math.min(freshForMs, outcome.value.freshForMs);
    const { status } = outcome.value.value;
    const envelope = jsonOf(outcome.value.value) as { code?: number; data?: unknown };
    if (status === 404) state.fallback[key] = null;
    else if (envelope.code !== 0) state.failures[key] = 502;
    else state.fallback[key] = embeddedPayload(key, payloadOf(envelope, payloadKindOf(key) ?? "list"));
  });

  if (inOthers) freshForMs = Math.min(freshForMs, inOthers.freshForMs);
  const versions = !config.contentLang
    ? []
    : mainKey === undefined
      ? [...siteLangs()]
      : siteLangs().filter(
          (one) => one === baseLang() || (one === lang ? hasTranslation(state.fallback[mainKey]) : (inOthers?.langs.has(one) ?? false)),
        );
  state.translated = lang === baseLang() ? versions.length > 1 : versions.includes(lang);
  if (siteLangs().length > 2) state.versions = versions;

  const detail = match ? detailKey(match) : undefined;
  const failures = Object.values(state.failures);
  let status: LoadedPage["status"] = 200;
  if (!match) {
    status = 404;
  } else if (match.route.detail && (detail === undefined || (!(detail in state.failures) && isEmptyPayload(state.fallback[detail])))) {
    status = 404;
    if (detail) state.fallback[detail] = null;
  } else if (failures.length > 0) {
    status = failures.includes(504) ? 504 : 502;
  }
  return { state, status, freshForMs: Number.isFinite(freshForMs) ? freshForMs : 0, tags: unionOfTags(keys.map(cacheTagsOfKey)) };
}
