/** PORTAL_LANGS and PORTAL_LANG: the site's languages, read once at start; a bad list stops startup naming what is wrong. */
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../server/config.ts";

describe("PORTAL_LANGS", () => {
  it("is zh-CN and en when unset, PORTAL_LANG leading / as before", () => {
    expect(parseConfig({})).toMatchObject({ langs: ["zh-CN", "en"], lang: "zh-CN" });
    expect(parseConfig({ PORTAL_LANG: "en" })).toMatchObject({ langs: ["zh-CN", "en"], lang: "en" });
  });

  it("takes an empty PORTAL_LANGS, or one of blanks, as unset, as every variable", () => {
    for (const value of ["", "  "])
      expect(parseConfig({ PORTAL_LANGS: value }), JSON.stringify(value)).toMatchObject({ langs: ["zh-CN", "en"], lang: "zh-CN" });
  });

  it("reads tags in any case, blanks around them ignored, each as the interface spells it", () => {
    expect(parseConfig({ PORTAL_LANGS: " zh-CN , en " })).toMatchObject({ langs: ["zh-CN", "en"], lang: "zh-CN" });
    expect(parseConfig({ PORTAL_LANGS: "zh-cn" })).toMatchObject({ langs: ["zh-CN"], lang: "zh-CN" });
    expect(parseConfig({ PORTAL_LANGS: "ZH-TW,EN", PORTAL_LANG: "en" })).toMatchObject({ langs: ["zh-TW", "en"], lang: "en" });
  });

  it("reads any list of the ten languages, in its order, by tag as written or in lower case", () => {
    const config = parseConfig({ PORTAL_LANGS: "zh-CN, en, ja, zh-tw, AR" });
    expect(config.langs).toEqual(["zh-CN", "en", "ja", "zh-TW", "ar"]);
    expect(config.lang).toBe("zh-CN");
    expect(parseConfig({ PORTAL_LANGS: "en,zh-CN,fr" })).toMatchObject({ langs: ["en", "zh-CN", "fr"], lang: "en" });
    expect(parseConfig({ PORTAL_LANGS: "ja,ar", PORTAL_LANG: "ar" })).toMatchObject({ lang: "ar" });
  });

  it.each([
    [
      "zh-CN,en,xx",
      /^PORTAL_LANGS names "xx", a language without interface strings \(there are zh-CN, zh-TW, en, ja, ko, es, fr, de, ru, ar\)/,
    ],
    ["zh-CN,he", /^PORTAL_LANGS names "he", a language without interface strings/],
    ["zh-CN,,en", /^PORTAL_LANGS has an empty entry: give the tags joined by commas, such as zh-CN,en \(got "zh-CN,,en"\)$/],
    ["zh-CN,en,", /^PORTAL_LANGS has an empty entry/],
    [" , en", /^PORTAL_LANGS has an empty entry/],
    ["zh-CN,ja,JA", /^PORTAL_LANGS names ja twice/],
    ["en,en", /^PORTAL_LANGS names en twice \(got "en,en"\)$/],
    ["zh-CN, zh-cn", /^PORTAL_LANGS names zh-CN twice/],
  ])("stops startup on %s, naming what is wrong", (value, message) => {
    expect(() => parseConfig({ PORTAL_LANGS: value })).toThrow(ConfigError);
    expect(() => parseConfig({ PORTAL_LANGS: value })).toThrow(message);
  });

  it("stops startup when PORTAL_LANG is not one of the site's languages", () => {
    expect(() => parseConfig({ PORTAL_LANGS: "zh-CN,ja,ar", PORTAL_LANG: "en" })).toThrow(
      /^PORTAL_LANG must be zh-CN, ja or ar \(a language of PORTAL_LANGS\) \(got "en"\)$/,
    );
    expect(() => parseConfig({ PORTAL_LANG: "fr" })).toThrow(/^PORTAL_LANG must be zh-CN or en/);
  });
});
