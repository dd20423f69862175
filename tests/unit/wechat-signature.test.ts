import { describe, expect, it } from "vitest";
import { jsSdkSignature } from "../../server/wechat/js-sdk-signature.ts";
import { pageUrlToSign } from "../../server/wechat/page-url.ts";

describe("the JS-SDK's signature", () => {
  it("is the one WeChat's JS-SDK documentation works out in its appendix 1", () => {
    const signature = jsSdkSignature({
      ticket: "sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg",
      nonceStr: "Wm3WZYTPz0wzccnW",
      timestamp: 1414587457,
      url: "http://mp.weixin.qq.com?params=value",
    });
    expect(signature).toBe("0f9de62fce790f9a083d5c99e95740ceb90c27ed");
  });

  it("leaves the fragment out of the address it signs", () => {
    const input = { ticket: "t", nonceStr: "n", timestamp: 1, url: "http://mp.weixin.qq.com?params=value" };
    expect(jsSdkSignature({ ...input, url: `${input.url}#share` })).toBe(jsSdkSignature(input));
  });
});

describe("the address a signature is asked for", () => {
  const origin = "https://www.example.com";
  const asked = (...urls: string[]) => pageUrlToSign(new URLSearchParams(urls.map((url) => ["url", url])), origin);

  it("is a page of this site on PUBLIC_ORIGIN, signed as given without its fragment", () => {
    expect(asked("https://www.example.com/portal/message/news/7.html?x=1&y=%E4%B8%AD#top")).toEqual({
      url: "https://www.example.com/portal/message/news/7.html?x=1&y=%E4%B8%AD",
    });
    expect(asked("https://www.example.com/portal")).toEqual({ url: "https://www.example.com/portal" });
  });

  it.each([
    ["another site", "https://evil.example.net/portal/index.html"],
    ["another scheme", "http://www.example.com/portal/index.html"],
    ["another port", "https://www.example.com:8443/portal/index.html"],
    ["userinfo", "https://www.example.com@evil.example.net/portal/index.html"],
    ["outside the pages", "https://www.example.com/api/portal/sys/syscfg"],
    ["a look-alike prefix", "https://www.example.com/portalx/index.html"],
    ["a relative address", "/portal/index.html"],
    ["a space", "https://www.example.com/portal/a b.html"],
  ])("refuses %s", (_what, url) => {
    expect(asked(url)).toEqual({ problem: "url must be a page of this site, under https://www.example.com/portal/" });
  });

  it("refuses no url, two of them, and one too long to be a page", () => {
    expect(asked()).toEqual({ problem: "url must be given once: the address of a page of this site" });
    expect(asked("https://www.example.com/portal/a.html", "https://www.example.com/portal/b.html")).toHaveProperty("problem");
    expect(asked(`https://www.example.com/portal/${"a".repeat(2100)}`)).toEqual({ problem: "url must be at most 2048 characters" });
  });
});
