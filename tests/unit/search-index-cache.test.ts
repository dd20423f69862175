/** The search index's files hold SQLite's page cache within SEARCH_CACHE_MB, built or read, not better-sqlite3's 16 MB. */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INDEX_CACHE_KB, openIndexDb } from "../../server/search/index-schema.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "portal-search-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a search index file", () => {
  it("caches at most SEARCH_CACHE_MB of its pages, whether built or read, and 2 MB unless told", () => {
    const file = path.join(dir, "search.db");
    const building = openIndexDb(file, true, 512);
    expect(building.pragma("cache_size", { simple: true })).toBe(-512);
    building.close();
    const read = openIndexDb(file, false);
    expect(read.pragma("cache_size", { simple: true })).toBe(-INDEX_CACHE_KB);
    expect(INDEX_CACHE_KB).toBe(2048);
    read.close();
  });
});
