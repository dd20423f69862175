/** What `npm run content -- import` and `-- push` queue for search engines (docs/behaviour.md#telling-search-engines). */
import type { PushConfig } from "../config.ts";
import type { SiteFile } from "../content/site-file.ts";
import { addressesOf, addressesOfGone } from "./page-addresses.ts";
import { createPushStore } from "./push-store.ts";
import { enginesOf, queuePaths } from "./queue-paths.ts";
import { unsendablePath } from "./sendable-path.ts";
import { changedItemsOf } from "./site-changes.ts";

const MAX_URL_LENGTH = 2048;

/** The number of page addresses queued (each for every engine configured); 0 with none configured. */
export async function queueImportChanges(
  config: PushConfig,
  databaseUrl: string,
  before: SiteFile | undefined,
  after: SiteFile,
  now = Date.now(),
): Promise<number> {
  if (enginesOf(config).length === 0) return 0;
  const { changed, gone } = changedItemsOf(before, after);
  const store = createPushStore(databaseUrl);
  try {
    const changedPaths = changed.flatMap(addressesOf);
    const gonePaths = gone.flatMap(addressesOfGone);
    await queuePaths(store, config, changedPaths, { now });
    await queuePaths(store, config, gonePaths, { now, gone: true });
    return changedPaths.length + gonePaths.length;
  } finally {
    await store.close();
  }
}

/** Each address checked first: a bad one queues nothing and is named in the error thrown. */
export async function queueAddressesByHand(config: PushConfig, databaseUrl: string, urls: readonly string[], now = Date.now()) {
  const engines = enginesOf(config);
  if (engines.length === 0 || config.publicOrigin === undefined) {
    throw new Error("no search engine is configured: set INDEXNOW_KEY or BAIDU_PUSH_TOKEN, with PUBLIC_ORIGIN");
  }
  const paths = urls.map((raw) => pathOf(raw, config.publicOrigin as string));
  const store = createPushStore(databaseUrl);
  try {
    return { engines, queued: await queuePaths(store, config, paths, { now }) };
  } finally {
    await store.close();
  }
}

function pathOf(raw: string, origin: string): string {
  const shown = raw.length > 100 ? `${raw.slice(0, 100)}…` : raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${shown} is not an absolute URL: give addresses such as ${origin}/portal/message/news/1`);
  }
  if (raw.length > MAX_URL_LENGTH) throw new Error(`${shown} is longer than ${MAX_URL_LENGTH} characters`);
  if (url.origin !== origin || url.username || url.password) throw new Error(`${shown} is not on PUBLIC_ORIGIN (${origin})`);
  if (url.hash) throw new Error(`${shown} has a fragment: search engines are told of pages, without #`);
  const path = url.pathname + url.search;
  const why = unsendablePath(path);
  if (why) throw new Error(`${shown} ${why}`);
  return path;
}
