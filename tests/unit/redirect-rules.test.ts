/**
 * The redirect rules file as an operator writes it: what each line means, which request it sends where,
 * and what is refused (with its line) when loaded. docs/redirects.md.
 */
import { describe, expect, it } from "vitest";
import { parseRulesFile, RulesFileError } from "../../server/redirect-rules/rules-file.ts";

const table = (...lines: string[]) => parseRulesFile(["from,to,status", ...lines].join("\n")).table;
const where = (t: ReturnType<typeof table>, url: string) => {
  const answer = t.lookup(url);
  return answer && `${answer.status} ${answer.location ?? ""}`.trim();
};
const loadError = (...lines: string[]) => {
  try {
    table(...lines);
  } catch (err) {
    if (err instanceof RulesFileError) return err.message;
    throw err;
  }
  return "loaded";
};

describe("redirect rules: matching", () => {
  it("sends an exact path to its target with 301 by default, and keeps the request's query", () => {
    const t = table("/about.html,/portal/about/index.html,");
    expect(where(t, "/about.html")).toBe("301 /portal/about/index.html");
    expect(where(t, "/about.html?from=mail")).toBe("301 /portal/about/index.html?from=mail");
    expect(where(t, "/About.html")).toBeUndefined();
    expect(where(t, "/about.html/")).toBeUndefined();
  });

  it("fills :name from one segment, with literal text around it, and * from the rest of the path", () => {
    const t = table("/news/:id.html,/portal/message/news/:id,", "/old/*,/portal/*,308");
    expect(where(t, "/news/12.html")).toBe("301 /portal/message/news/12");
    expect(where(t, "/news/.html")).toBeUndefined();
    expect(where(t, "/news/a/12.html")).toBeUndefined();
    expect(where(t, "/old/about/index.html?x=1")).toBe("308 /portal/about/index.html?x=1");
  });

  it("matches a rule with a query when the request holds its parameters, whatever else, and drops the query", () => {
    const t = table("/index.php?aid=:id,/portal/message/news/:id,", "/list.php?tid=1,/portal/message/news/list.html,");
    expect(where(t, "/index.php?aid=12&x=1")).toBe("301 /portal/message/news/12");
    expect(where(t, "/index.php?x=1&aid=12")).toBe("301 /portal/message/news/12");
    expect(where(t, "/list.php?tid=1&page=2")).toBe("301 /portal/message/news/list.html");
    expect(where(t, "/list.php?tid=2")).toBeUndefined();
    expect(where(t, "/index.php")).toBeUndefined();
  });

  it("matches no rule for a parameter named twice (?aid=1&aid=2)", () => {
    const t = table("/index.php?aid=:id,/portal/message/news/:id,", "/v.php?aid=1,/portal/product/1,");
    expect(where(t, "/index.php?aid=1&aid=2")).toBeUndefined();
    expect(where(t, "/v.php?aid=1&aid=2")).toBeUndefined();
  });

  it("reads PbootCMS's compatible forms: a bare query key, and a path in s=", () => {
    const t = table("/?news/:id.html,/portal/message/news/:id,", "/index.php?s=/news/:id.html,/portal/message/news/:id,");
    expect(where(t, "/?news/12.html")).toBe("301 /portal/message/news/12");
    expect(where(t, "/index.php?s=/news/7.html")).toBe("301 /portal/message/news/7");
    expect(where(t, "/index.php?s=%2Fnews%2F7.html")).toBe("301 /portal/message/news/7");
  });

  it("tries exact rules first, then patterns in file order", () => {
    const t = table("/news/:id.html,/portal/message/news/:id,", "/news/:n.html,/elsewhere,", "/news/1.html,/portal/product/1,");
    expect(where(t, "/news/1.html")).toBe("301 /portal/product/1");
    expect(where(t, "/news/2.html")).toBe("301 /portal/message/news/2");
    // A pattern starting with :name comes before a later one starting with the request's first segment.
    const mixed = table("/:section/:id.html,/portal/first/:id,", "/news/:id.html,/portal/second/:id,");
    expect(where(mixed, "/news/3.html")).toBe("301 /portal/first/3");
    const later = table("/news/:id.html,/portal/second/:id,", "/:section/:id.html,/portal/first/:id,");
    expect(where(later, "/news/3.html")).toBe("301 /portal/second/3");
  });

  it("reads percent-encoded and UTF-8 paths alike, and encodes what it writes", () => {
    const t = table("/关于我们.html,/portal/about/index.html,", "/tag/:t,/portal/search.html?q=:t,", "/x,/portal/新闻,");
    expect(where(t, "/%E5%85%B3%E4%BA%8E%E6%88%91%E4%BB%AC.html")).toBe("301 /portal/about/index.html");
    expect(where(t, "/tag/a%20b%26c")).toBe("301 /portal/search.html?q=a%20b%26c");
    expect(where(t, "/x")).toBe("301 /portal/%E6%96%B0%E9%97%BB");
    const idn = table("/shop/*,https://例子.example/店/*,");
    expect(where(idn, "/shop/a")).toBe("301 https://xn--fsqu00a.example/%E5%BA%97/a");
  });

  it("answers a chain's last target in one redirect, and 410 when it ends at a gone rule", () => {
    const t = table("/a,/b,302", "/b,/c,", "/c,/portal/index.html,", "/g1,/g2,", "/g2,,410");
    expect(where(t, "/a?q=1")).toBe("302 /portal/index.html?q=1");
    expect(where(t, "/g1")).toBe("410");
  });

  it("answers 410 for a gone rule, and the other statuses as written", () => {
    const t = table("/gone,,410", "/t,/portal/index.html,307", "/p,/portal/index.html,302");
    expect(where(t, "/gone")).toBe("410");
    expect(where(t, "/t")).toBe("307 /portal/index.html");
    expect(where(t, "/p")).toBe("302 /portal/index.html");
  });
});

describe("redirect rules: never to another host", () => {
  const t = table("/n/:id,/:id,", "/r/*,/*,", "/q?u=:u,/portal/search.html?q=:u,", "/ext/*,https://shop.example.com/*,");
  const hostile = [
    "/n/%2F%2Fevil.com",
    "/n/%5Cevil.com",
    "/n/%2F%5Cevil.com",
    "/n/..",
    "/n/%2E%2E",
    "/n/a%0d%0aSet-Cookie:x",
    "/r//evil.com",
    "/r/%2F%2Fevil.com",
    "/r/%5C%5Cevil.com",
    "/r/\\evil.com",
    "/r/%5Cevil.com",
    "/q?u=%2F%2Fevil.com",
    "/ext//evil.com",
  ];
  it.each(hostile)("%s: no match, or a Location on this site or the file's own host", (url) => {
    const location = t.lookup(url)?.location;
    if (location === undefined) return;
    const resolved = new URL(location, "https://portal.example");
    expect(["portal.example", "shop.example.com"]).toContain(resolved.host);
    expect(location).not.toMatch(/^\/[/\\]/);
  });

  it("fills captured text percent-encoded, so it cannot end the path or begin another URL", () => {
    expect(t.lookup("/n/evil.com%3A443")?.location).toBe("/evil.com%3A443");
    expect(t.lookup("/q?u=evil.com:443%23x")?.location).toBe("/portal/search.html?q=evil.com%3A443%23x");
    // A query value may hold "/": it is only ever written into the target's query, encoded.
    expect(t.lookup("/q?u=https://evil.com")?.location).toBe("/portal/search.html?q=https%3A%2F%2Fevil.com");
  });
});

describe("redirect rules: what loading refuses, with the line", () => {
  it.each([
    [["/x,//evil.com,"], /line 2: to must be a path beginning with one \//],
    [["/x,/\\evil.com,"], /line 2: to must be a path/],
    [["/x,javascript:alert(1),"], /line 2: to must be a path/],
    [["/x,https://:host/,"], /line 2: to/],
    [["/x/:h,https://:h.example.com/,"], /line 2: to (is not a URL|'s host must be written out in full)/],
    [["/x,/y,399"], /line 2: status must be/],
    [["/x,/y,410"], /line 2: a 410 rule \(gone\) has no to/],
    [["/x,,301"], /line 2: a 301 rule needs a to/],
    [["x,/y,"], /line 2: from must be a path/],
    [["/x,/y:z,"], /line 2: to uses :z, which from does not capture/],
    [["/x,/y/*,"], /line 2: to uses \*, but from does not end in \*/],
    [["/ok,/y,", "/x,/y"], /line 3: has 2 fields/],
    [["/x,/y,", "/x,/z,"], /line 3: repeats the from of line 2/],
    [["/x?a=1,/y,", "/x?a=1,/z,"], /line 3: repeats the from of line 2/],
    [["/a,/b,", "/b,/a,"], /line 2: redirect rules loop: lines 2 → 3 → 2/],
    [["/old/*,/old/new/*,"], /line 2: redirect rules loop/],
  ])("%j", (lines, message) => {
    expect(loadError(...lines)).toMatch(message);
  });

  it("refuses a chain longer than 10 steps, and a file without its header", () => {
    const chain = Array.from({ length: 12 }, (_, i) => `/c${i},/c${i + 1},`);
    expect(loadError(...chain)).toMatch(/line 2: redirect chain longer than 10 steps/);
    expect(() => parseRulesFile("/a,/b,\n")).toThrow(/line 1: the first line must be the header from,to,status/);
  });

  it("reads quoted fields, CRLF, a byte-order mark, notes and blank lines", () => {
    const t = parseRulesFile('\uFEFFfrom,to,status\r\n# a note\r\n\r\n"/a,b",/portal/index.html,\r\n').table;
    expect(t.size).toBe(1);
    expect(t.lookup("/a,b")?.location).toBe("/portal/index.html");
  });
});

describe("redirect rules: bounded work", () => {
  it("looks nothing up for a path too long or with too many segments", () => {
    const t = table("/a/*,/portal/index.html,");
    expect(where(t, `/a/${"a".repeat(5000)}`)).toBeUndefined();
    expect(where(t, "/a".repeat(100))).toBeUndefined();
    expect(where(t, "/a/b")).toBe("301 /portal/index.html");
  });
});

describe("redirect rules: patterns indexed, not scanned", () => {
  const many = (count: number) =>
    table(...Array.from({ length: count }, (_, i) => `/:cat/list${i}_:page.html,/portal/:cat/:page,`), "/a/c/:id.html,/portal/news/:id,");

  it("checks as few rules for a lookup among 20,000 patterns as among 10", () => {
    const small = many(10);
    const big = many(20_000);
    // A miss, a hit under a :name, one under a literal, and one whose literal branch leads nowhere.
    for (const url of ["/portal/index.html", "/news/list7_3.html", "/a/c/12.html", "/a/zzz/1.html"]) {
      const answer = small.lookup(url);
      expect(big.lookup(url)?.location, url).toBe(answer?.location);
      expect(big.patternsTried, url).toBe(small.patternsTried);
      expect(big.patternsTried, url).toBeLessThanOrEqual(1);
    }
    expect(big.lookup("/news/list19999_3.html")?.location).toBe("/portal/news/3");
    expect(big.patternsTried).toBe(1);
  });

  it("still answers the first matching pattern in file order, a :name before a literal or a * written earlier", () => {
    const t = table(
      "/:cat/list_:page.html,/portal/first/:cat/:page,",
      "/news/list_:page.html,/portal/second/:page,",
      "/shop/*,/portal/shop/*,",
      "/shop/item/:id,/portal/product/:id,",
      "/docs/:id,/portal/docs/:id,",
      "/docs/*,/portal/all-docs/*,",
    );
    expect(where(t, "/news/list_2.html")).toBe("301 /portal/first/news/2");
    expect(where(t, "/shop/item/3")).toBe("301 /portal/shop/item/3");
    expect(where(t, "/docs/4")).toBe("301 /portal/docs/4");
    expect(where(t, "/docs/4/5")).toBe("301 /portal/all-docs/4/5");
  });

  it("walks back from a literal branch that matches nothing to a :name that does", () => {
    const t = table("/news/archive/:id.html,/portal/archive/:id,", "/:cat/:id.html,/portal/:cat/:id,");
    expect(where(t, "/news/archive/1.html")).toBe("301 /portal/archive/1");
    expect(where(t, "/news/7.html")).toBe("301 /portal/news/7");
  });
});

describe("redirect rules: rules no request could match are refused", () => {
  it.each([
    ["/a%2Fb,/y,", /line 2: from's path holds an encoded \/ or \\/],
    ["/a%5Cb,/y,", /line 2: from's path holds an encoded \/ or \\/],
    ["/a/../b,/y,", /line 2: from's path holds a \. or \.\. segment/],
    ["/a/./b,/y,", /line 2: from's path holds a \. or \.\. segment/],
    ["/a%00b,/y,", /line 2: from's path holds .*control character/],
    ["/a\u0000b,/y,", /line 2: from's path holds .*control character/],
    ["/s?q=a%00:q,/y?q=:q,", /line 2: from's query holds a control character/],
  ])("%j", (line, message) => {
    expect(loadError(line)).toMatch(message);
  });
});

describe("redirect rules: a query value may hold /", () => {
  const t = table(
    "/?s=:q,/portal/search.html?q=:q,",
    "/plus/search.php?keyword=:q,/portal/search.html?q=:q,",
    "/plus/view.php?aid=:id,/portal/message/news/:id,",
  );

  it("when it is written only into the target's query, percent-encoded, on this site", () => {
    expect(where(t, "/?s=TCP/IP")).toBe("301 /portal/search.html?q=TCP%2FIP");
    expect(where(t, "/plus/search.php?keyword=TCP%2FIP")).toBe("301 /portal/search.html?q=TCP%2FIP");
    const hostile = t.lookup("/?s=//evil.com/x")?.location as string;
    expect(hostile).toBe("/portal/search.html?q=%2F%2Fevil.com%2Fx");
    expect(new URL(hostile, "https://portal.example").host).toBe("portal.example");
  });

  it("but not when it would be written into a path, and never a backslash or control character", () => {
    expect(t.lookup("/plus/view.php?aid=1/2")).toBeUndefined();
    expect(t.lookup("/?s=a%5Cb")).toBeUndefined();
    expect(t.lookup("/?s=a%0Ab")).toBeUndefined();
  });
});
