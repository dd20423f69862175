/**
 * The fixture site imported into a fresh database of the suite's and served by the embedded content API on
 * 127.0.0.1 for the whole suite, closed after it: the setup the content API's suites share.
 */
import { afterAll, beforeAll } from "vitest";
import { type StartedContentApi, startContentApi } from "../../server/content/api.ts";
import { type ContentDb, openContentDb } from "../../server/content/db.ts";
import { importSite } from "../../server/content/site-io.ts";
import { getJson } from "./content-http.ts";
import type { TestDatabases } from "./databases.ts";
import { buildFixtureSite } from "./fixture-site.ts";

export function serveFixtureSite(databases: TestDatabases) {
  const site = buildFixtureSite();
  const served = {} as { content: ContentDb; api: StartedContentApi };

  beforeAll(async () => {
    served.content = await openContentDb(await databases.create());
    await importSite(served.content, site);
    served.api = await startContentApi(served.content, { host: "127.0.0.1", port: 0 });
  });

  afterAll(async () => {
    await served.api?.close();
    await served.content?.close();
    await databases.dispose();
  });

  return {
    site,
    /** The content API's origin, once the suite has started. */
    url: () => served.api.url,
    get: <T>(path: string, init?: RequestInit) => getJson<T>(served.api.url, `/api/portal${path}`, init),
  };
}
