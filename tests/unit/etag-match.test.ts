import { describe, expect, it } from "vitest";
import { matchesIfNoneMatch } from "../../server/http/etag-match.ts";

describe("If-None-Match, compared weakly", () => {
  it("matches the tag weak or strong, alone or in a list, and *", () => {
    for (const header of ['W/"abc"', '"abc"', ' "x", W/"abc" ', 'W/"a,b", "abc"', "*", " * "]) {
      expect([header, matchesIfNoneMatch(header, 'W/"abc"')]).toEqual([header, true]);
      expect([header, matchesIfNoneMatch(header, '"abc"')]).toEqual([header, true]);
    }
  });

  it("matches nothing else: another tag, a tag holding it, an unquoted one, or none", () => {
    for (const header of [undefined, "", '"abcd"', '"a,b"', 'W/"ab", "c"', "abc", 'W/"x", abc']) {
      expect([header, matchesIfNoneMatch(header, 'W/"abc"')]).toEqual([header, false]);
    }
    expect(matchesIfNoneMatch('"a,b"', 'W/"a,b"')).toBe(true);
    expect(matchesIfNoneMatch('"a', 'W/"a"')).toBe(false);
  });
});
