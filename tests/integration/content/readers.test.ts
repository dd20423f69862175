/**
 * Reader counts: concurrent PUTs lose no increment, counts survive closing and
 * reopening the database, and only existing messages are counted.
 */
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { type StartedContentApi, startContentApi } from "../../../server/content/api.ts";
import { type ContentDb, openContentDb } from "../../../server/content/db.ts";
import { exportSite, importSite } from "../../../server/content/site-io.ts";
import { incrementReader, readerCount } from "../../../server/content/store.ts";
import { MESSAGE_KIND } from "../../../shared/entities.ts";
import { getJson, putReader } from "../../support/content-http.ts";
import { describeEachDatabase } from "../../support/databases.ts";
import { buildFixtureSite } from "../../support/fixture-site.ts";

describeEachDatabase("reader counts", (databases) => {
  let url: string;
  let content: ContentDb;
  let api: StartedContentApi | undefined;

  const start = async () => {
    content = await openContentDb(url);
    api = await startContentApi(content, { host: "127.0.0.1", port: 0 });
    return api.url;
  };
  const stop = async () => {
    await api?.close();
    api = undefined;
    await content.close();
  };
  const countOver = async (origin: string, type: number, pid: number) =>
    (await getJson<number>(origin, `/api/portal/reader/reader?type=${type}&pid=${pid}`)).body.data;

  beforeAll(async () => {
    url = await databases.create();
    const setup = await openContentDb(url);
    await importSite(setup, buildFixtureSite());
    await setup.close();
  });

  afterEach(async () => {
    if (api) await stop();
  });

  afterAll(() => databases.dispose());

  it("counts 200 concurrent PUTs for one message exactly", async () => {
    const origin = await start();
    const before = await countOver(origin, MESSAGE_KIND.news, 5);
    const answers = await Promise.all(Array.from({ length: 200 }, () => putReader(origin, { type: 2, pid: 5 })));
    expect(answers.map((a) => a.status)).toEqual(Array(200).fill(200));
    expect(await countOver(origin, MESSAGE_KIND.news, 5)).toBe(before + 200);
  });

  it("keeps the counts when the database is closed and reopened", async () => {
    let origin = await start();
    await putReader(origin, { type: 1, pid: 2 });
    const counted = await countOver(origin, MESSAGE_KIND.notice, 2);
    expect(counted).toBe(6);
    await stop();

    origin = await start();
    expect(await countOver(origin, MESSAGE_KIND.notice, 2)).toBe(counted);
    expect(await countOver(origin, MESSAGE_KIND.news, 5)).toBe(200);
  });

  it("refuses a message that does not exist and stores nothing for it", async () => {
    content = await openContentDb(url);
    try {
      const before = (await exportSite(content)).readers;
      expect(await incrementReader(content, MESSAGE_KIND.notice, 25, Date.now())).toBe(false);
      expect(await incrementReader(content, MESSAGE_KIND.news, Number.MAX_SAFE_INTEGER, Date.now())).toBe(false);
      expect(await readerCount(content, MESSAGE_KIND.notice, 25)).toBe(0);
      expect((await exportSite(content)).readers).toEqual(before);
      // The first read of a message creates its record.
      expect(await incrementReader(content, MESSAGE_KIND.news, 25, Date.now())).toBe(true);
      expect(await readerCount(content, MESSAGE_KIND.news, 25)).toBe(1);
    } finally {
      await content.close();
    }
  });
});
