/**
 * Site search as the server runs it (docs/behaviour.md#search): an index per language when the
 * content is read by language, else the content language's answering them all.
 */
import { keyInLang } from "../../shared/data-keys.ts";
import { addressTag } from "../../shared/langs.ts";
import type { Lang } from "../../shared/page-state.ts";
import { siteLangs } from "../../shared/site-langs.ts";
import type { UpstreamClient } from "../api-proxy/upstream-client.ts";
import { type ContentReader, uncachedReader } from "./read-content.ts";
import { searchPageGuard } from "./search-page-guard.ts";
import { createSiteSearch, type SiteSearch, type SiteSearchOptions } from "./site-search.ts";

export type { IndexChanges, SiteSearch } from "./site-search.ts";

/** A language's index beside the content language's: `search.en.db`, `search.zh-tw.db`. */
const langIndexFile = (file: string, lang: Lang): string =>
  file.endsWith(".db") ? `${file.slice(0, -3)}.${addressTag(lang)}.db` : `${file}.${addressTag(lang)}`;

/** An index per language with `contentLang`, else the content language's answers them all (docs/behaviour.md#search). */
function createSearchInLangs(options: SiteSearchOptions & { contentLang: boolean }): SiteSearch {
  const { contentLang, reader, ...common } = options;
  const [base, ...others] = siteLangs() as [Lang, ...Lang[]];
  const own = createSiteSearch({ ...common, reader, langs: contentLang ? [base] : [base, ...others] });
  if (!contentLang || others.length === 0) return own;
  const byLang = new Map<Lang, SiteSearch>([[base, own]]);
  for (const lang of others) {
    const inLang: ContentReader = { get: (key, requestId) => reader.get(keyInLang(key, lang), requestId) };
    byLang.set(lang, createSiteSearch({ ...common, file: langIndexFile(options.file, lang), reader: inLang, langs: [lang] }));
  }
  const all = [...byLang.values()];
  const sum = (a: Record<string, number>, b: Record<string, number>) => {
    const out = { ...a };
    for (const [name, n] of Object.entries(b)) out[name] = (out[name] ?? 0) + n;
    return out;
  };
  return {
    start: () => {
      for (const one of all) one.start();
    },
    close: () => {
      for (const one of all) one.close();
    },
    search: (query, lang = base) => (byLang.get(lang) ?? own).search(query, lang),
    readerWith: (next) => all.reduceRight((inner, one) => one.readerWith(inner), next),
    onPurge: (request) => {
      for (const one of all) one.onPurge(request);
    },
    rebuild: () => Promise.all(all.map((one) => one.rebuild())).then(() => undefined),
    settled: () => Promise.all(all.map((one) => one.settled())).then(() => undefined),
    // The last build is the oldest of them: the one a stale index would show.
    figures: () => {
      const each = all.map((one) => one.figures());
      const known = <T>(values: (T | undefined)[]): T[] | undefined => (values.includes(undefined) ? undefined : (values as T[]));
      const built = known(each.map((f) => f.builtAt));
      const seconds = known(each.map((f) => f.buildSeconds));
      return {
        documents: each.reduce((n, f) => n + f.documents, 0),
        bytes: each.reduce((n, f) => n + f.bytes, 0),
        builtAt: built && Math.min(...built),
        buildSeconds: seconds?.reduce((n, s) => n + s, 0),
        queries: each.map((f) => f.queries).reduce(sum),
        empty: each.map((f) => f.empty).reduce(sum),
      };
    },
  };
}

interface SearchSettings {
  file: string;
  refreshMs: number;
  cacheKb?: number;
  contentLang: boolean;
  contentLangParam: string | undefined;
}

type SearchDeps = Omit<SiteSearchOptions, "file" | "refreshMs" | "cacheKb" | "reader" | "langs"> & { upstream: UpstreamClient };

export function createSearch(settings: SearchSettings, { upstream, ...deps }: SearchDeps) {
  const reader = uncachedReader(upstream, settings.contentLangParam);
  const { file, refreshMs, cacheKb, contentLang } = settings;
  return Object.assign(createSearchInLangs({ file, refreshMs, cacheKb, contentLang, reader, ...deps }), { pageGuard: searchPageGuard() });
}
