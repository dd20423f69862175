import { beforeAll, describe, expect, it } from "vitest";
import { loadMessages } from "../../client/i18n/messages.ts";
import { PAGES_MESSAGES } from "../../client/i18n/messages-pages.ts";
import { translatorFor } from "../../client/i18n/use-t.ts";

describe("interface strings with a count", () => {
  beforeAll(() => loadMessages("en"));

  it.each([
    [0, "0 items", "0 reads"],
    [1, "1 item", "1 read"],
    [2, "2 items", "2 reads"],
    [21, "21 items", "21 reads"],
  ])("reads %i in English in its plural form", (n, total, readers) => {
    const t = translatorFor("en", PAGES_MESSAGES);
    expect(t.count("pages.list.total", n)).toBe(total);
    expect(t.count("pages.message.readers", n)).toBe(readers);
  });

  it.each([0, 1, 2])("leaves Chinese as it was for %i", (n) => {
    const t = translatorFor("zh-CN", PAGES_MESSAGES);
    expect(t.count("pages.list.total", n)).toBe(`共 ${n} 条`);
    expect(t.count("pages.message.readers", n)).toBe(`阅读 ${n}`);
  });
});
