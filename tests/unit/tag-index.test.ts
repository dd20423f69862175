/** The index a purge by tag reads: every key kept under a tag is found, and a removed one no longer is. */
import { describe, expect, it } from "vitest";
import { TagIndex } from "../../server/cache/tag-index.ts";

describe("the tag index", () => {
  it("finds each key under each of its tags, however many keys share a tag", () => {
    const index = new TagIndex();
    index.add("/news/1", ["news", "news:1"]);
    index.add("/news/1", ["news", "news:1"]);
    index.add("/news/2", ["news", "news:2"]);
    index.add("/news/list", ["news"]);
    expect(index.keysOf("news:1")).toEqual(["/news/1"]);
    expect(index.keysOf("news").sort()).toEqual(["/news/1", "/news/2", "/news/list"]);
    expect(index.keysOf("notice")).toEqual([]);
  });

  it("forgets a removed key, down to a tag with one key and then none, and takes keys again after", () => {
    const index = new TagIndex();
    for (const key of ["a", "b", "c"]) index.add(key, ["site", `item:${key}`]);
    index.remove("b", ["site", "item:b"]);
    expect(index.keysOf("site").sort()).toEqual(["a", "c"]);
    expect(index.keysOf("item:b")).toEqual([]);
    index.remove("a", ["site", "item:a"]);
    expect(index.keysOf("site")).toEqual(["c"]);
    // A key that is not under the tag leaves it as it is.
    index.remove("a", ["site"]);
    expect(index.keysOf("site")).toEqual(["c"]);
    index.add("d", ["site"]);
    expect(index.keysOf("site").sort()).toEqual(["c", "d"]);
    index.remove("c", ["site"]);
    index.remove("d", ["site"]);
    expect(index.keysOf("site")).toEqual([]);
    index.add("e", ["site"]);
    expect(index.keysOf("site")).toEqual(["e"]);
  });
});
