import { describe, expect, it } from "vitest";
import { HeavyHitters } from "../../server/operations/heavy-hitters.ts";
import { MISSING_PAGES_CAPACITY } from "../../server/operations/missing-pages.ts";
import { csvField, missingPagesCsv } from "../../server/operations/missing-pages-csv.ts";
import { mergeSightings, type Sighting } from "../../server/operations/missing-pages-store.ts";
import { isPagePath, MAX_PATH_CHARS, missingPathOf, referrerOriginOf } from "../../server/operations/missing-path.ts";
import { parseRulesFile } from "../../server/redirect-rules/rules-file.ts";

const at = (t: number, referrer: string | null = null): Sighting => ({ firstSeen: t, lastSeen: t, referrer });
const sketch = (capacity = MISSING_PAGES_CAPACITY) => new HeavyHitters<Sighting>(capacity, mergeSightings);

describe("the missing-pages sketch", () => {
  it("keeps a path asked for six times through 3,000 distinct paths asked for once, at the capacity it runs with", () => {
    const counts = sketch();
    for (let i = 0; i < 6; i++) counts.add("/old/news/12.html", at(i));
    for (let i = 0; i < 3000; i++) counts.add(`/flood/${i}`, at(100 + i));
    const kept = counts.top(1)[0];
    expect(kept?.key).toBe("/old/news/12.html");
    expect(kept?.count).toBe(6);
    expect(kept?.meta).toEqual({ firstSeen: 0, lastSeen: 5, referrer: null });
  });

  it("keeps paths asked for 50 and 6 times through 200,000 distinct paths asked once, and lists no one-off above 1", () => {
    const counts = sketch();
    for (let i = 0; i < 50; i++) counts.add("/often-asked.html", at(i));
    for (let i = 0; i < 6; i++) counts.add("/six-times.html", at(i));
    for (let i = 0; i < 200_000; i++) counts.add(`/missing-${i}`, at(100 + i));
    const top = counts.top(100);
    expect(top.slice(0, 2).map((e) => [e.key, e.count])).toEqual([
      ["/often-asked.html", 50],
      ["/six-times.html", 6],
    ]);
    expect(top.slice(2).every((e) => e.count === 1)).toBe(true);
    // Bounded: the table at its capacity, the doorkeeper at four times it.
    expect(counts.size).toBe(MISSING_PAGES_CAPACITY);
    expect(counts.waiting).toBe(4 * MISSING_PAGES_CAPACITY);
  });

  it("keeps a path asked for twice through a flood of one-offs, however few its counters", () => {
    const counts = sketch(10);
    for (let i = 0; i < 10; i++) counts.add(`/early/${i}`, at(i));
    counts.add("/twice", at(10));
    counts.add("/twice", at(11));
    for (let i = 0; i < 50_000; i++) counts.add(`/flood/${i}`, at(100 + i));
    expect(counts.top(10).map((e) => e.key)).toContain("/twice");
    expect(counts.top(1)[0]).toMatchObject({ key: "/twice", count: 2 });
    expect(counts.top(10).filter((e) => e.key.startsWith("/flood/"))).toEqual([]);
  });

  it("admits a path asked for again once the table is full, in place of the least counted, with its own count", () => {
    const counts = sketch(3);
    for (const [path, n] of [
      ["/a", 5],
      ["/b", 3],
      ["/c", 2],
    ] as const)
      for (let i = 0; i < n; i++) counts.add(path, at(i));
    // Seen as often as the least: not enough. Once more: it takes /c's place, counted 3, not 2 + 3.
    counts.add("/new", at(10));
    counts.add("/new", at(11));
    expect(counts.top(3).map((e) => e.key)).not.toContain("/new");
    counts.add("/new", at(12));
    expect(counts.top(3).map((e) => [e.key, e.count])).toEqual([
      ["/a", 5],
      ["/b", 3],
      ["/new", 3],
    ]);
    // What it pushed out is remembered: asked for again, /c comes back with its count.
    counts.add("/c", at(13));
    counts.add("/c", at(14));
    expect(counts.top(3).map((e) => [e.key, e.count])).toContainEqual(["/c", 4]);
  });

  it("hands on, in the next batch it gets into, what its doorkeeper held of a path", () => {
    const counts = sketch(2);
    counts.add("/a", at(0));
    counts.add("/b", at(1));
    counts.add("/later", at(2));
    expect(counts.drain().map((e) => [e.key, e.count])).toEqual([
      ["/a", 1],
      ["/b", 1],
    ]);
    counts.add("/later", at(3));
    expect(counts.drain().map((e) => [e.key, e.count])).toEqual([["/later", 2]]);
  });

  it("holds no more than its capacity after 100,000 distinct paths, and still ranks the ones asked for often", () => {
    const counts = sketch();
    for (let i = 0; i < 100_000; i++) {
      counts.add(`/flood/${i}`, at(i));
      if (i % 100 === 0) counts.add("/often", at(i));
    }
    expect(counts.size).toBe(MISSING_PAGES_CAPACITY);
    expect(counts.top(1)[0]?.key).toBe("/often");
  });

  it("lists the most counted first, ties by path", () => {
    const counts = sketch(10);
    for (const [path, n] of [
      ["/b", 2],
      ["/a", 2],
      ["/c", 5],
      ["/d", 1],
    ] as const)
      for (let i = 0; i < n; i++) counts.add(path, at(i));
    expect(counts.top(3).map((e) => [e.key, e.count])).toEqual([
      ["/c", 5],
      ["/a", 2],
      ["/b", 2],
    ]);
  });

  it("keeps the earliest first sighting, the latest last one, and the last referrer seen", () => {
    expect(mergeSightings(at(10, "https://a.example"), at(20))).toEqual({ firstSeen: 10, lastSeen: 20, referrer: "https://a.example" });
    expect(mergeSightings(at(10, "https://a.example"), at(20, "https://b.example")).referrer).toBe("https://b.example");
    // A sighting gathered elsewhere that is older does not replace the latest referrer.
    expect(mergeSightings(at(30, "https://a.example"), at(20, "https://b.example"))).toEqual({
      firstSeen: 20,
      lastSeen: 30,
      referrer: "https://a.example",
    });
  });
});

describe("a missing path", () => {
  it.each([
    ["/news/12.html?utm_source=x", "/news/12.html"],
    ["/a%2d%41b", "/a-Ab"],
    ["/%e6%96%b0%e9%97%bb", "/%E6%96%B0%E9%97%BB"],
    ["/新闻", "/%E6%96%B0%E9%97%BB"],
    ["/a b", "/a%20b"],
    ["/a%2fb", "/a%2Fb"],
    ["/100%", "/100%25"],
    ["/x#frag", "/x"],
    ["http://other.example/abs/path?q=1", "/abs/path"],
  ])("counts %s as %s", (url, path) => {
    expect(missingPathOf(url)).toBe(path);
  });

  it("is cut to its bound, never inside an escape", () => {
    expect(missingPathOf(`/${"a".repeat(2000)}`)).toHaveLength(MAX_PATH_CHARS);
    const cut = missingPathOf(`/${"新".repeat(200)}`) as string;
    expect(cut.length).toBeLessThanOrEqual(MAX_PATH_CHARS);
    expect(cut).toMatch(/^(\/)?(%[0-9A-F]{2})+$/);
  });

  it("is no page for the API, images, files and icons", () => {
    for (const path of [
      "/api/portal/x",
      "/api/portal",
      "/portal/_img",
      "/portal/media/a.jpg",
      "/portal/assets/x.js",
      "/favicon.ico",
      "/uploads/a.PNG",
    ])
      expect(isPagePath(path), path).toBe(false);
    for (const path of ["/news/12.html", "/index.php", "/portal/message/news/999", "/api/portalx"])
      expect(isPagePath(path), path).toBe(true);
  });

  it("keeps only the origin of a referrer", () => {
    expect(referrerOriginOf("https://www.example.com/search?q=secret")).toBe("https://www.example.com");
    expect(referrerOriginOf("android-app://com.x/")).toBeNull();
    expect(referrerOriginOf("not a url")).toBeNull();
    expect(referrerOriginOf(undefined)).toBeNull();
  });
});

describe("the redirects file to fill in", () => {
  it("quotes commas, quotes and line breaks, and never starts a cell with a formula", () => {
    expect(csvField("/a,b")).toBe('"/a,b"');
    expect(csvField('/a"b')).toBe('"/a""b"');
    expect(csvField("/a\nb")).toBe('"/a\nb"');
    for (const start of ["=", "+", "-", "@"]) expect(csvField(`${start}cmd`)).toBe(`"'${start}cmd"`);
    expect(csvField("/plain")).toBe("/plain");
  });

  it("has the rules file's header and leaves `to` and `status` empty", () => {
    const page = { count: 3, firstSeen: "", lastSeen: "", referrer: null };
    expect(
      missingPagesCsv([
        { ...page, path: "/old,page" },
        { ...page, path: "/news/1.html" },
      ]),
    ).toBe('from,to,status\n"/old,page",,\n/news/1.html,,\n');
  });

  it("writes `:` and `*` encoded, so a row filled in redirects that one path and nothing else", () => {
    const page = { count: 3, firstSeen: "", lastSeen: "", referrer: null };
    const csv = missingPagesCsv([
      { ...page, path: "/*" },
      { ...page, path: "/:page" },
      { ...page, path: "/a:b/x*y" },
    ]);
    expect(csv).toBe("from,to,status\n/%2A,,\n/%3Apage,,\n/a%3Ab/x%2Ay,,\n");
    const filled = csv.replace(/,,$/gm, ",/portal/contact.html,");
    const { table } = parseRulesFile(filled);
    for (const path of ["/*", "/:page", "/%3Apage", "/a:b/x*y"]) expect(table.lookup(path)?.location, path).toBe("/portal/contact.html");
    for (const path of ["/", "/page", "/news/1.html", "/:other", "/a:b/xzy", "/a:b/x*y/z", "/x/*"])
      expect(table.lookup(path), path).toBeUndefined();
  });
});
