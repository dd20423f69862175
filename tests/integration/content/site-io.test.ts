/**
 * Moving a whole site in and out of the database: exact round trips, all-or-nothing
 * imports, and the first-start load of a site file.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContentDb, openContentDb } from "../../../server/content/db.ts";
import { parseSiteFile, type SiteFile } from "../../../server/content/site-file.ts";
import { exportSite, importSite, loadSiteIfEmpty } from "../../../server/content/site-io.ts";
import { SiteImportError, serialiseSite } from "../../../server/content/site-text.ts";
import { getMessage, incrementReader, listMessages, listProducts, nextPublishAt, readerCount } from "../../../server/content/store.ts";
import { describeEachDatabase } from "../../support/databases.ts";
import { buildFixtureSite } from "../../support/fixture-site.ts";

const VISITOR = { preview: false, nowMs: Date.now() };
const DEMO_SITE = join(import.meta.dirname, "../../../content/site.json");

describe("the test fixture", () => {
  it("is a valid site file", () => {
    const parsed = parseSiteFile(buildFixtureSite());
    expect(parsed.ok ? "valid" : parsed.error).toBe("valid");
  });
});

describeEachDatabase("site import and export", (databases) => {
  const fixture = buildFixtureSite();
  let content: ContentDb;
  let folder: string;

  beforeAll(async () => {
    content = await openContentDb(await databases.create());
    folder = await mkdtemp(join(tmpdir(), "portal-site-io-"));
  });

  afterAll(async () => {
    await content?.close();
    await rm(folder, { recursive: true, force: true });
    await databases.dispose();
  });

  it("refuses to export an empty database", async () => {
    await expect(exportSite(content)).rejects.toThrow(/no site/);
  });

  it("exports exactly the site file it imported", async () => {
    await importSite(content, fixture);
    const exported = await exportSite(content);
    expect(exported).toEqual(fixture);
    expect(serialiseSite(exported)).toBe(serialiseSite(fixture));
  });

  it("round-trips export → import → export byte for byte", async () => {
    const first = serialiseSite(await exportSite(content));
    await importSite(content, JSON.parse(first) as SiteFile);
    expect(serialiseSite(await exportSite(content))).toBe(first);
  });

  it("carries drafts and schedules through export and import, hiding them from visitors until due", async () => {
    const now = Date.parse("2026-03-01T12:00:00Z");
    const [first, second, third] = fixture.news as [SiteFile["news"][number], SiteFile["news"][number], SiteFile["news"][number]];
    const site: SiteFile = {
      ...fixture,
      news: [
        { ...first, status: "draft" },
        { ...second, publishAt: "2026-03-01T21:00:00+08:00" },
        { ...third, publishAt: "2026-03-01T11:00:00Z" },
        ...fixture.news.slice(3),
      ],
      products: [{ ...(fixture.products[0] as SiteFile["products"][number]), status: "draft" }, ...fixture.products.slice(1)],
      jobs: [{ ...(fixture.jobs[0] as SiteFile["jobs"][number]), publishAt: "2026-03-02T00:00:00Z" }, ...fixture.jobs.slice(1)],
    };
    await importSite(content, site);
    const exported = await exportSite(content);
    expect(exported.news.slice(0, 3)).toEqual([
      { ...first, status: "draft" },
      { ...second, publishAt: "2026-03-01T13:00:00.000Z" },
      { ...third, publishAt: "2026-03-01T11:00:00.000Z" },
    ]);
    expect(exported.products[0]?.status).toBe("draft");
    expect(exported.jobs[0]?.publishAt).toBe("2026-03-02T00:00:00.000Z");
    // Items with neither export as before there were any.
    expect(exported.news[3]).toEqual(fixture.news[3]);
    const text = serialiseSite(exported);
    await importSite(content, JSON.parse(text) as SiteFile);
    expect(serialiseSite(await exportSite(content))).toBe(text);

    const page = { pageIndex: 0, pageMaxCount: 100 };
    const visitor = { preview: false, nowMs: now };
    const ids = async (audience: typeof visitor) => (await listMessages(content, 2, page, audience)).pageDataList.map((m) => m.id);
    expect(await ids(visitor)).not.toContain(first.id);
    expect(await ids(visitor)).not.toContain(second.id);
    expect(await ids(visitor)).toContain(third.id);
    expect((await listMessages(content, 2, page, visitor)).totalCount).toBe(fixture.news.length - 2);
    expect(await getMessage(content, 2, first.id, visitor)).toBeUndefined();
    expect(await getMessage(content, 2, first.id, { preview: true, nowMs: now })).toBeDefined();
    expect((await ids({ preview: true, nowMs: now })).length).toBe(fixture.news.length);
    expect(await ids({ preview: false, nowMs: Date.parse("2026-03-01T13:00:00Z") })).toContain(second.id);
    expect((await listProducts(content, visitor)).map((p) => p.id)).not.toContain(fixture.products[0]?.id);
    expect(await incrementReader(content, 2, first.id, now)).toBe(false);
    // The next time the site changes by itself: the news item at 13:00, then the job at midnight, then none.
    expect(await nextPublishAt(content, now)).toBe(Date.parse("2026-03-01T13:00:00Z"));
    expect(await nextPublishAt(content, Date.parse("2026-03-01T13:00:00Z"))).toBe(Date.parse("2026-03-02T00:00:00Z"));
    expect(await nextPublishAt(content, Date.parse("2026-03-02T00:00:00Z"))).toBeUndefined();
    await importSite(content, fixture);
  });

  it("refuses a publishAt without its offset, and a status it does not know, naming the field", () => {
    const bad = (news: Record<string, unknown>) => parseSiteFile({ ...fixture, news: [{ ...fixture.news[0], ...news }] });
    expect(bad({ publishAt: "2026-03-01 09:00" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^news\[0\]\.publishAt: must be an ISO 8601/),
    });
    expect(bad({ publishAt: "2026-02-30T09:00:00Z" })).toMatchObject({ ok: false });
    expect(bad({ status: "hidden" })).toMatchObject({ ok: false, error: "news[0].status: must be published or draft" });
  });

  it("exports readers sorted by type, then pid", async () => {
    const shuffled = { ...fixture, readers: [...fixture.readers].reverse() };
    await importSite(content, shuffled);
    expect((await exportSite(content)).readers).toEqual(fixture.readers);
  });

  it("replaces all content, leaving nothing of the old site", async () => {
    const smaller: SiteFile = { ...fixture, products: fixture.products.slice(0, 1), news: fixture.news.slice(0, 2), readers: [] };
    await importSite(content, smaller);
    expect(await listProducts(content, VISITOR)).toEqual(smaller.products);
    expect((await listMessages(content, 2, { pageIndex: 0, pageMaxCount: 100 }, VISITOR)).totalCount).toBe(2);
    expect(await readerCount(content, 2, 1)).toBe(0);
    await importSite(content, fixture);
    expect(serialiseSite(await exportSite(content))).toBe(serialiseSite(fixture));
  });

  it("rejects a malformed site naming the first bad field, and changes nothing", async () => {
    const before = serialiseSite(await exportSite(content));
    const bad = structuredClone(fixture);
    (bad.news[3] as { dateTime: string }).dateTime = "2024";
    const attempt = importSite(content, bad);
    await expect(attempt).rejects.toBeInstanceOf(SiteImportError);
    await expect(attempt).rejects.toThrow(/^news\[3\]\.dateTime: /);
    expect(serialiseSite(await exportSite(content))).toBe(before);
  });

  it("rejects text with a NUL character on every database, naming the field", async () => {
    const bad = structuredClone(fixture);
    (bad.jobs[1] as { callHr: string }).callHr = "bad\u0000text";
    await expect(importSite(content, bad)).rejects.toThrow(/^jobs\[1\]\.callHr: must not contain NUL/);
  });

  it("keeps the old content when the import fails inside the transaction", async () => {
    const before = serialiseSite(await exportSite(content));
    // The menus table is emptied last: hiding it makes the import fail after every other table changed.
    await sql`alter table menus rename to menus_away`.execute(content.db);
    try {
      await expect(importSite(content, { ...fixture, products: [], readers: [] })).rejects.toThrow();
    } finally {
      await sql`alter table menus_away rename to menus`.execute(content.db);
    }
    expect(serialiseSite(await exportSite(content))).toBe(before);
  });

  it("stores product and service types as large as ids", async () => {
    const big = structuredClone(fixture);
    (big.products[0] as { type: number }).type = Number.MAX_SAFE_INTEGER;
    await importSite(content, big);
    expect((await listProducts(content, VISITOR))[0]?.type).toBe(Number.MAX_SAFE_INTEGER);
    await importSite(content, fixture);
  });

  it("loads a site file only into an empty database", async () => {
    const file = join(folder, "site.json");
    await writeFile(file, serialiseSite(fixture));
    const fresh = await openContentDb(await databases.create());
    try {
      expect(await loadSiteIfEmpty(fresh, file)).toBe(true);
      expect(serialiseSite(await exportSite(fresh))).toBe(serialiseSite(fixture));
      await writeFile(file, serialiseSite({ ...fixture, products: [] }));
      expect(await loadSiteIfEmpty(fresh, file)).toBe(false);
      expect(await listProducts(fresh, VISITOR)).toEqual(fixture.products);
    } finally {
      await fresh.close();
    }
  });

  it.skipIf(!existsSync(DEMO_SITE))("loads the bundled demo site and exports it unchanged", async () => {
    const fresh = await openContentDb(await databases.create());
    try {
      expect(await loadSiteIfEmpty(fresh, DEMO_SITE)).toBe(true);
      const exported = await exportSite(fresh);
      await importSite(fresh, exported);
      expect(serialiseSite(await exportSite(fresh))).toBe(serialiseSite(exported));
    } finally {
      await fresh.close();
    }
  });
});
