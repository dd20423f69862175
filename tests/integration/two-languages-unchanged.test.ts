/**
 * A site of two languages (PORTAL_LANGS unset, today's default) answers byte for byte as
 * it did before the site could have any number of languages: every page of the demo site
 * in both languages, the sitemap and the feeds, against files recorded from the build
 * before that change (search pages aside: what they find depends on when the index is
 * ready, tests/integration/search.test.ts). Only what differs from build to build is put aside: the hashed names
 * of the built files and the contact form's token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { expectAsRecorded } from "../support/recorded-pages.ts";

const ORIGIN = "https://www.example.com";
const RECORDED = "./two-languages";

describe("two languages, as before", () => {
  let site: BuiltSite;

  beforeAll(async () => {
    site = await startBuiltSite({ PUBLIC_ORIGIN: ORIGIN, MISS_RATE_PER_MIN: "0" });
  });
  afterAll(() => site?.close());

  it("answers every page of the demo site in both languages, the sitemap and the feeds byte for byte as before", async () => {
    const sitemap = await (await fetch(`${site.origin}/sitemap.xml`)).text();
    const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] as string).replace(ORIGIN, ""));
    const paths = [
      "/sitemap.xml",
      "/portal/message/news/rss.xml",
      "/portal/en/message/news/rss.xml",
      "/portal/message/notice/rss.xml",
      "/portal/en/message/notice/rss.xml",
      "/portal/contact.html",
      "/portal/en/contact.html",
      "/portal/message/notice/34",
      "/portal/en/message/notice/34",
      ...listed.filter((path) => !/\/(news|notice)\/\d+$/.test(path) || /\/(3|4|34)$/.test(path)),
    ];
    expect(paths.length).toBeGreaterThan(40);
    await expectAsRecorded(site.origin, paths, RECORDED);
  }, 180_000);
});
