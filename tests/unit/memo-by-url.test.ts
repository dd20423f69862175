import { describe, expect, it } from "vitest";
import { memoByUrl } from "../../server/cache/memo-by-url.ts";

describe("memoByUrl", () => {
  it("works a repeated URL out once, forgets the oldest past 2000 URLs, and never keeps very long ones", () => {
    const computed: string[] = [];
    const lengthOf = memoByUrl((url) => {
      computed.push(url);
      return url.length;
    });
    expect([lengthOf("/a"), lengthOf("/a"), lengthOf("/a")]).toEqual([2, 2, 2]);
    expect(computed).toEqual(["/a"]);

    for (let i = 0; i < 2000; i++) lengthOf(`/u${i}`);
    lengthOf("/u1999");
    expect(computed.filter((u) => u === "/u1999")).toHaveLength(1);
    lengthOf("/a");
    expect(computed.filter((u) => u === "/a")).toHaveLength(2);

    const long = `/${"x".repeat(600)}`;
    lengthOf(long);
    lengthOf(long);
    expect(computed.filter((u) => u === long)).toHaveLength(2);
  });
});
