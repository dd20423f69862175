import { describe, expect, it } from "vitest";
import { clip, isNotFound, textOfHtml } from "../../client/server-head/page-meta.ts";
import { canonicalPath, imageUrl } from "../../client/server-head/seo-urls.ts";
import { employmentTypeOf, jsonLdScript } from "../../client/server-head/structured-data.ts";
import { createGeneratedCache } from "../../server/cache/generated-cache.ts";
import { rfc822Of, w3cDateOf } from "../../server/seo/message-dates.ts";
import { robotsTxt } from "../../server/seo/robots.ts";
import { escapeXml } from "../../server/seo/xml.ts";
import { keys } from "../../shared/page-data.ts";
import { matchPage } from "../../shared/routes.ts";

describe("message dates for feeds and sitemaps", () => {
  it("writes China-time dateTimes as RFC 822 with the weekday", () => {
    expect(rfc822Of("20261110091040")).toBe("Tue, 10 Nov 2026 09:10:40 +0800");
    expect(rfc822Of("20240229235959")).toBe("Thu, 29 Feb 2024 23:59:59 +0800");
    expect(rfc822Of("20240101")).toBe("Mon, 01 Jan 2024 00:00:00 +0800");
  });

  it("writes W3C datetimes with the +08:00 offset", () => {
    expect(w3cDateOf("20261110091040")).toBe("2026-11-10T09:10:40+08:00");
    expect(w3cDateOf("20240101")).toBe("2024-01-01");
  });

  it("gives nothing for a value that is not a real date", () => {
    for (const bad of ["20230229120000", "20241301000000", "20240132", "20240101246000", "2024010112", "abc", "", undefined, null]) {
      expect(rfc822Of(bad), String(bad)).toBeUndefined();
      expect(w3cDateOf(bad), String(bad)).toBeUndefined();
    }
  });
});

describe("XML text", () => {
  it("escapes markup and drops what XML 1.0 forbids, keeping other characters", () => {
    expect(escapeXml(`a & b < c > "d" 'e'`)).toBe("a &amp; b &lt; c &gt; &quot;d&quot; &apos;e&apos;");
    expect(escapeXml("x\u0000\u0001\u000by\tz\n")).toBe("xy\tz\n");
    expect(escapeXml("lone \ud800 high, lone \udc00 low, pair 😀, \ufffe")).toBe("lone  high, lone  low, pair 😀, ");
    expect(escapeXml("青禾数智")).toBe("青禾数智");
  });
});

describe("robots.txt", () => {
  it("names the sitemap only when the absolute origin is known", () => {
    expect(robotsTxt("https://www.example.com")).toBe(
      "User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: https://www.example.com/sitemap.xml\n",
    );
    expect(robotsTxt(undefined)).not.toContain("Sitemap");
  });
});

describe("canonical URLs", () => {
  const none = () => undefined;
  const canonical = (url: string, read: <T>(key: string) => T | undefined = none) => {
    const [path, search = ""] = url.split("?") as [string, string?];
    const query = new URLSearchParams(search);
    const match = matchPage(path, query);
    if (!match) throw new Error(url);
    return canonicalPath(match, query, read);
  };

  it("gives a detail its /x/{id} form whichever form was asked for", () => {
    expect(canonical("/message/news/12")).toBe("/portal/message/news/12");
    expect(canonical("/message/news?id=12&utm=x")).toBe("/portal/message/news/12");
    expect(canonical("/product?id=3")).toBe("/portal/product/3");
    expect(canonical("/message/news/abc")).toBeUndefined();
  });

  it("puts a job under its own kind", () => {
    const campus = <T>(key: string) => (key === keys.job(5) ? ({ id: 5, type: 2 } as T) : undefined);
    expect(canonical("/job/society/5", campus)).toBe("/portal/job/school/5");
    expect(canonical("/job/society/5")).toBe("/portal/job/society/5");
  });

  it("leaves list defaults out and keeps what changes the content", () => {
    expect(canonical("/message/news/list.html?page=1&size=20")).toBe("/portal/message/news/list.html");
    expect(canonical("/message/news/list.html?size=100&page=3")).toBe("/portal/message/news/list.html?page=3&size=100");
    expect(canonical("/job/school/index.html?jobAddrIds=4,2&size=20&x=1")).toBe("/portal/job/school/index.html?jobAddrIds=2,4");
    expect(canonical("/about/milepost/index.html?page=2")).toBe("/portal/about/milepost/index.html");
  });

  it("is the page's address in the language asked for: English under /en, Chinese unprefixed", () => {
    const inLang = (url: string, lang: "zh-CN" | "en") => {
      const [path, search = ""] = url.split("?");
      const query = new URLSearchParams(search);
      const match = matchPage(path as string, query);
      return match && canonicalPath(match, query, () => undefined, lang);
    };
    expect(inLang("/message/news/list.html?page=2", "en")).toBe("/portal/en/message/news/list.html?page=2");
    expect(inLang("/en/message/news/list.html?page=2", "zh-CN")).toBe("/portal/message/news/list.html?page=2");
    expect(inLang("/en/product?id=3", "en")).toBe("/portal/en/product/3");
  });
});

describe("image URLs for other sites", () => {
  it("makes root-relative images absolute when the origin is known and refuses unusable ones", () => {
    expect(imageUrl("https://a.example", "/portal/media/x.svg")).toBe("https://a.example/portal/media/x.svg");
    expect(imageUrl(undefined, "/portal/media/x.svg")).toBe("/portal/media/x.svg");
    expect(imageUrl("https://a.example", "https://cdn.example/y.png")).toBe("https://cdn.example/y.png");
    expect(imageUrl("https://a.example", "//cdn.example/y.png")).toBe("https://cdn.example/y.png");
    for (const bad of ["", "media/x.png", "javascript:alert(1)", "data:image/png;base64,xx", undefined])
      expect(imageUrl("https://a.example", bad)).toBeUndefined();
  });
});

describe("page facts", () => {
  it("reads the text of sanitised HTML and clips it", () => {
    expect(textOfHtml("<p>A &amp; B</p><ul><li>one</li><li>two&nbsp;&#x4e00;</li></ul>")).toBe("A & B one two 一");
    expect(clip("x".repeat(200), 10)).toBe(`${"x".repeat(9)}…`);
    expect(clip("😀".repeat(5), 3)).toBe("😀😀…");
  });

  it("knows a not-found detail from the state the server rendered with", () => {
    const found = matchPage("/message/news/7", new URLSearchParams()) as NonNullable<ReturnType<typeof matchPage>>;
    expect(isNotFound(found, { [keys.news(7)]: { id: 7 } })).toBe(false);
    expect(isNotFound(found, { [keys.news(7)]: null })).toBe(true);
    expect(isNotFound(matchPage("/message/news/x", new URLSearchParams()), {})).toBe(true);
    expect(isNotFound(matchPage("/about/index.html", new URLSearchParams()), {})).toBe(false);
  });

  it("calls campus positions internships only when their name says so", () => {
    expect(employmentTypeOf({ type: 1, name: "实习生" })).toBe("FULL_TIME");
    expect(employmentTypeOf({ type: 2, name: "后端开发实习生" })).toBe("INTERN");
    expect(employmentTypeOf({ type: 2, name: "Summer Intern" })).toBe("INTERN");
    expect(employmentTypeOf({ type: 2, name: "后端开发工程师（2027届）" })).toBe("FULL_TIME");
  });

  it("writes JSON-LD that nothing can break out of", () => {
    const script = jsonLdScript({ name: "</script><script>alert(1)</script>&\u2028" });
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    const json = /^<script type="application\/ld\+json">(.*)<\/script>$/s.exec(script)?.[1] as string;
    expect(json).not.toMatch(/[<>&]/);
    expect(JSON.parse(json).name).toBe("</script><script>alert(1)</script>&\u2028");
  });
});

describe("generated documents", () => {
  it("shares one generation between concurrent requests and keeps it for its time", async () => {
    let now = 0;
    let runs = 0;
    const cache = createGeneratedCache<string>(() => now);
    const generate = async () => ({ value: `v${++runs}`, freshForMs: 1000 });
    const generatedOf = async (key: string) => (await cache.get(key, generate)).value;
    expect(await Promise.all([generatedOf("k"), generatedOf("k")])).toEqual(["v1", "v1"]);
    now = 999;
    expect(await generatedOf("k")).toBe("v1");
    now = 1000;
    expect(await generatedOf("k")).toBe("v2");
  });

  it("does not keep a failure", async () => {
    const cache = createGeneratedCache<string>(() => 0);
    await expect(cache.get("k", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect((await cache.get("k", async () => ({ value: "ok", freshForMs: 10 }))).value).toBe("ok");
  });
});
