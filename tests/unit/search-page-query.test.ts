/** The search page's route module reads its URL as the full parser does: same cache-key values, data keys and links. */
import { describe, expect, it } from "vitest";
import { PAGES } from "../../shared/routes.ts";
import { parseSearchPage, searchKey } from "../../shared/search.ts";

const QUERIES = [
  "",
  "q=",
  "q=%20%20",
  "q=cloud",
  "q=%20cloud%20%0A%20platform%20",
  "q=a&q=b",
  "q=a&q=",
  `q=${"云".repeat(100)}`,
  `q=${"云".repeat(101)}`,
  `q=${"😀".repeat(100)}`,
  `q=${"a".repeat(101)}`,
  "q=x&type=job",
  "q=x&type=jobs",
  "q=x&type=",
  "q=x&type=news&type=job",
  "q=x&page=2",
  "q=x&page=1",
  "q=x&page=0",
  "q=x&page=02",
  "q=x&page=100001",
  "q=x&page=100002",
  "q=x&size=50",
  "q=x&size=20",
  "q=x&size=7",
  "q=x&size=050",
  "q=x&page=3&size=10&type=service",
  "type=job&page=2",
  "q=a%26b%3Dc%2Bd&type=notice",
  "q[]=x&q[]=y",
  "q[0]=x&type[]=job",
  "q=%E4%BA%91%2C%E6%96%B0%3Bx",
  "q=%00%0D%0A",
  "q=x&page=-1&size=abc",
  "q=x&page=1e3&size=0x10",
];

/** As the route module read the query with the full parser. */
function byParser(query: URLSearchParams) {
  const parsed = parseSearchPage(query);
  if (!parsed.ok) return { values: { q: query.get("q") ?? undefined }, keys: [] };
  const { q, type, pageIndex, pageMaxCount } = parsed.value;
  return {
    values: {
      q: q || undefined,
      type,
      page: pageIndex > 0 ? pageIndex + 1 : undefined,
      size: pageMaxCount !== 20 ? pageMaxCount : undefined,
    },
    keys: q !== "" ? [searchKey(parsed.value)] : [],
  };
}

describe("the search page's route module", () => {
  it.each(QUERIES)("reads ?%s as the search parser does", (raw) => {
    const query = new URLSearchParams(raw);
    const expected = byParser(query);
    expect(PAGES.search.query(query)).toStrictEqual(expected.values);
    expect(PAGES.search.dataKeys(undefined, query)).toStrictEqual(expected.keys);
    expect(PAGES.search.href(PAGES.search.query(query))).toBe(PAGES.search.href(expected.values));
  });
});
