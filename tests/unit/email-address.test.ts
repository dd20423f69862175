import { describe, expect, it } from "vitest";
import { isPlainEmail } from "../../shared/email-address.ts";

describe("a plain email address", () => {
  it("is what people type as theirs, in any script", () => {
    for (const address of [
      "li.lei@example.com",
      "li.lei+sales@example.com",
      "o'brien@mail.example.co.uk",
      "a_b-c@xn--fiqs8s.example",
      "王小明@例子.中国",
      "x@a.io",
    ]) {
      expect(isPlainEmail(address), address).toBe(true);
    }
  });

  it("is never one a mail program reads as more, or shows as another", () => {
    for (const address of [
      "=?utf-8?q?ceo=40corp.example?=@evil.cc", // an encoded word, shown decoded as ceo@corp.example
      "a@[127.0.0.1]", // an address literal
      "a@127.0.0.1",
      "ceo%corp.example@evil.cc", // % routing
      "corp.example!ceo@evil.cc", // bang path
      "cc.live\u202e@corp.example", // a right-to-left override
      "ceo\u200b@corp.example", // an invisible character
      "ceo@corp.example@evil.cc",
      '"ceo@corp.example"@evil.cc',
      "ceo @corp.example",
      "ceo@localhost",
      "ceo@corp..example",
      "ceo@-corp.example",
      "ceo@corp.example.",
      ".ceo@corp.example",
      "ceo.@corp.example",
      "ceo@corp.c",
      "@corp.example",
      `${"a".repeat(65)}@corp.example`,
      "\uff41@\uff42.cn", // full-width letters: sent as ａ@b.cn, shown as a@b.cn
      "a@\uff42.cn",
      "\uff43\uff45\uff4f@corp.example",
      "\ufb01nance@corp.example", // the ligature ﬁ
      "ceo\u2024corp@evil.cn", // a one-dot leader, folded to "."
    ]) {
      expect(isPlainEmail(address), address).toBe(false);
    }
  });
});
