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

  it("would lose it with too few counters: the capacity is what keeps it", () => {
    const counts = sketch(100);
    for (let i = 0; i < 6; i++) counts.add("/old/news/12.html", at(i));
    for (let i = 0; i < 3000; i++) counts.add(`/flood/${i}`, at(100 + i));
    expect(counts.top(100).some((entry) => entry.key === "/old/news/12.html")).toBe(false);
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
