/** Preview links and cookies (docs/behaviour.md#preview): what an editor's link opens, and what is refused. */
import { createHmac } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { type PurgeSecret, parseConfig } from "../../server/config.ts";
import { previewLinkCommand } from "../../server/preview/preview-command.ts";
import { inPreviewOf, previewCookieOf } from "../../server/preview/preview-cookie.ts";
import { checkPreviewLink, previewLinkOf, sitePathOf } from "../../server/preview/preview-link.ts";

const secretOf = (seed: string): PurgeSecret => {
  const key = Buffer.from(seed.padEnd(24, "*"));
  return { text: `whsec_${key.toString("base64")}`, key };
};
const OLD = secretOf("the old secret");
const NEW = secretOf("the new secret");
const NOW = Date.parse("2026-03-01T12:00:00Z");
const IN_AN_HOUR = NOW / 1000 + 3600;

const queryOf = (link: string) => new URLSearchParams(link.split("?")[1]);
const request = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } }) as IncomingMessage;

describe("a preview link", () => {
  it("is signed as docs/behaviour.md#preview says: base64url HMAC-SHA256 of path.expires under the secret's bytes", () => {
    const link = previewLinkOf("/portal/message/news/12", IN_AN_HOUR, NEW);
    const expected = createHmac("sha256", NEW.key).update(`/portal/message/news/12.${IN_AN_HOUR}`).digest("base64url");
    expect(queryOf(link).get("sig")).toBe(expected);
    expect(expected).not.toMatch(/[=+/]/);
  });

  it("opens the path it names, under either secret while one is rotated out", () => {
    for (const signer of [OLD, NEW]) {
      const link = previewLinkOf("/portal/message/news/12?x=1", IN_AN_HOUR, signer);
      expect(checkPreviewLink(queryOf(link), [NEW, OLD], NOW)).toEqual({
        ok: true,
        path: "/portal/message/news/12?x=1",
        expiresS: IN_AN_HOUR,
      });
    }
  });

  it("is refused forged, tampered, expired, repeated or off-site, saying why", () => {
    const good = previewLinkOf("/portal/", IN_AN_HOUR, NEW);
    const refusal = (link: string) => {
      const checked = checkPreviewLink(queryOf(link), [NEW], NOW);
      return checked.ok ? "accepted" : checked.error;
    };
    expect(refusal(previewLinkOf("/portal/", IN_AN_HOUR, OLD))).toMatch(/signature does not match/);
    expect(refusal(good.replace("%2Fportal%2F", "%2Fportal%2Fabout"))).toMatch(/signature does not match/);
    expect(refusal(previewLinkOf("/portal/", NOW / 1000, NEW))).toMatch(/expired/);
    expect(refusal(`${good}&path=%2Fportal%2Fabout`)).toMatch(/each once/);
    expect(refusal(good.replace(/expires=\d+/, "expires=soon"))).toMatch(/whole seconds/);
    for (const path of [
      "//evil.example/portal/",
      "/\\evil.example",
      "https://evil.example/portal/",
      "/portal/../admin",
      "/portalx",
      "/portal/_preview/exit",
      "/portal/\nx",
    ]) {
      expect(refusal(previewLinkOf(path, IN_AN_HOUR, NEW)), path).toMatch(/page of this site/);
    }
  });

  it("leads only to this site's pages", () => {
    expect(sitePathOf("/portal")).toBe("/portal");
    expect(sitePathOf("/portal/en/product/3?tab=1")).toBe("/portal/en/product/3?tab=1");
    expect(sitePathOf("/api/portal/sys/syscfg")).toBeUndefined();
    expect(sitePathOf(`/portal/${"a".repeat(3000)}`)).toBeUndefined();
  });
});

describe("the preview cookie", () => {
  it("is HttpOnly, SameSite=Lax, Path=/portal, Secure on https, and ends with the link, at most a day after", () => {
    expect(previewCookieOf(IN_AN_HOUR, NOW, NEW, true)).toMatch(
      /^portal_preview=\d+\.[\w-]+; Max-Age=3600; Path=\/portal; HttpOnly; SameSite=Lax; Secure$/,
    );
    expect(previewCookieOf(IN_AN_HOUR, NOW, NEW, false)).not.toContain("Secure");
    expect(previewCookieOf(NOW / 1000 + 7 * 86_400, NOW, NEW, false)).toContain("Max-Age=86400;");
  });

  it("makes a request a preview while valid, under either secret, and never forged or expired", () => {
    const inPreview = inPreviewOf([NEW, OLD], () => NOW);
    const value = (secret: PurgeSecret, expires = IN_AN_HOUR) => previewCookieOf(expires, NOW, secret, false).split(";")[0] as string;
    expect(inPreview(request(`a=1; ${value(OLD)}; b=2`))).toBe(true);
    expect(inPreview(request(value(NEW)))).toBe(true);
    expect(inPreview(request(value(secretOf("someone else's"))))).toBe(false);
    expect(inPreview(request(value(NEW).replace(/=(\d+)\./, (_, s) => `=${Number(s) + 1}.`)))).toBe(false);
    expect(inPreviewOf([NEW], () => (IN_AN_HOUR + 1) * 1000)(request(value(NEW)))).toBe(false);
    expect(inPreview(request())).toBe(false);
    expect(inPreviewOf([], () => NOW)(request(value(NEW)))).toBe(false);
  });

  it("is not taken from a link's signature: a link cannot be replayed as a cookie", () => {
    const sig = queryOf(previewLinkOf("/portal/", IN_AN_HOUR, NEW)).get("sig");
    expect(inPreviewOf([NEW], () => NOW)(request(`portal_preview=${IN_AN_HOUR}.${sig}`))).toBe(false);
  });
});

describe("npm run content -- preview-link", () => {
  const config = parseConfig({ PREVIEW_SECRET: NEW.text, PUBLIC_ORIGIN: "https://www.example.com" });

  it("prints an absolute link on PUBLIC_ORIGIN, valid the hours asked for, that the server opens", () => {
    const made = previewLinkCommand(config, ["/portal/message/news/12", "--hours", "2"], NOW);
    if (!made.ok) throw new Error(made.error);
    expect(made.link.startsWith("https://www.example.com/portal/_preview?")).toBe(true);
    expect(checkPreviewLink(queryOf(made.link), config.preview.secrets, NOW)).toEqual({
      ok: true,
      path: "/portal/message/news/12",
      expiresS: NOW / 1000 + 7200,
    });
  });

  it("prints a path without PUBLIC_ORIGIN, and refuses what it cannot sign", () => {
    const bare = previewLinkCommand(parseConfig({ PREVIEW_SECRET: NEW.text }), ["/portal/"], NOW);
    expect(bare).toMatchObject({ ok: true, note: expect.stringContaining("PUBLIC_ORIGIN") });
    expect(bare.ok && bare.link.startsWith("/portal/_preview?")).toBe(true);
    expect(previewLinkCommand(parseConfig({}), ["/portal/"], NOW)).toMatchObject({
      ok: false,
      error: expect.stringContaining("PREVIEW_SECRET"),
    });
    expect(previewLinkCommand(config, ["https://evil.example/"], NOW)).toMatchObject({
      ok: false,
      error: expect.stringContaining("under /portal"),
    });
    expect(previewLinkCommand(config, ["/portal/", "--hours", "0"], NOW)).toMatchObject({
      ok: false,
      error: expect.stringContaining("--hours"),
    });
    expect(previewLinkCommand(config, ["/portal/", "--days", "1"], NOW)).toMatchObject({ ok: false, usage: true });
  });
});

describe("PREVIEW_SECRET and PREVIEW_PARAM", () => {
  it("are refused in one line naming the variable when malformed", () => {
    expect(() => parseConfig({ PREVIEW_SECRET: "short" })).toThrow(/^PREVIEW_SECRET must be whsec_/);
    expect(() => parseConfig({ PREVIEW_PARAM: "a b" })).toThrow(/^PREVIEW_PARAM must be a query parameter name/);
    expect(parseConfig({}).preview).toEqual({ secrets: [], param: "preview" });
  });
});
