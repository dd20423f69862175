/**
 * Whether an item still exists and in which of the site's languages, read from the content API as
 * it now stands (never from a cache, which a purge has just made stale): the item, then the item in
 * each other language at once (docs/behaviour.md#telling-search-engines).
 */
import { keyInLang, keys } from "../../shared/data-keys.ts";
import { baseLang, siteLangs } from "../../shared/site-langs.ts";
import { upstreamPathOf } from "../api-proxy/api-reader.ts";
import type { UpstreamClient } from "../api-proxy/upstream-client.ts";
import { hasTranslation } from "../langs/other-versions.ts";
import type { ItemRef, ItemVersions } from "./page-addresses.ts";

export type ItemState = { kind: "exists"; versions: ItemVersions } | { kind: "gone" };

const DETAIL_KEY: Record<ItemRef["type"], (id: number) => string> = {
  news: keys.news,
  notice: keys.notice,
  product: keys.product,
  service: keys.service,
  job: keys.job,
};

/** The item's data; null: no such item. Throws when the content API could not tell. */
async function readItem(
  upstream: UpstreamClient,
  key: string,
  contentLangParam: string | undefined,
): Promise<Record<string, unknown> | null> {
  const res = await upstream.request("GET", `/api/portal${upstreamPathOf(key, contentLangParam)}`);
  if (res.status === 404) return null;
  if (res.status < 200 || res.status > 299) throw new Error(`the content API answered ${res.status}`);
  const envelope = JSON.parse(res.body.toString("utf8")) as { code?: unknown; data?: unknown } | null;
  if (envelope?.code !== 0) throw new Error(`the content API answered code ${String(envelope?.code)}`);
  const data = envelope.data;
  if (data === null || typeof data !== "object" || Array.isArray(data) || Object.keys(data).length === 0) return null;
  return data as Record<string, unknown>;
}

/** `contentLangParam` undefined: content is in its own language only, so no other page is canonical. */
export async function readItemVersions(upstream: UpstreamClient, contentLangParam: string | undefined, ref: ItemRef): Promise<ItemState> {
  const key = DETAIL_KEY[ref.type](ref.id);
  const item = await readItem(upstream, key, contentLangParam);
  if (!item) return { kind: "gone" };
  const others = contentLangParam === undefined ? [] : siteLangs().filter((lang) => lang !== baseLang());
  // A failed read leaves that language's page out rather than send one that may not be canonical.
  const inLangs = await Promise.all(others.map((lang) => readItem(upstream, keyInLang(key, lang), contentLangParam).catch(() => null)));
  const langs = others.filter((_, i) => hasTranslation(inLangs[i]));
  const jobKind = ref.type === "job" ? Number(item.type) : undefined;
  return { kind: "exists", versions: { ...ref, jobKind, langs } };
}
