import { describe, expect, it } from "vitest";
import { listHref, pageAfterResize, pageItems } from "../../client/components/paging.ts";
import { jobFilterOf, listPagingOf } from "../../shared/page-data.ts";

const q = (search: string) => new URLSearchParams(search);

describe("list paging from the page URL", () => {
  it("reads page and size, falling back to 1 and 20 for anything else", () => {
    expect(listPagingOf(q("page=3&size=50"))).toEqual({ page: 3, size: 50 });
    for (const bad of ["page=0&size=7", "page=-1&size=20.5", "page=1e2&size=", "page=02&size=010", ""]) {
      expect(listPagingOf(q(bad)), bad).toEqual({ page: 1, size: 20 });
    }
  });

  it("reads job filter ids comma-joined or repeated, dropping malformed ones, sorted and unique", () => {
    expect(jobFilterOf(q("jobTypeIds=3,1,,x,1&jobAddrIds=0,-2,7"))).toMatchObject({ jobTypeIds: [1, 3], jobAddrIds: [7] });
    expect(jobFilterOf(q("jobTypeIds=2&jobTypeIds=1&jobAddrIds=5"))).toMatchObject({ jobTypeIds: [1, 2], jobAddrIds: [5] });
    expect(jobFilterOf(q("page=2&size=10"))).toEqual({ page: 2, size: 10, jobTypeIds: [], jobAddrIds: [] });
  });
});

describe("paging links", () => {
  it("leave out page 1 and the default size, and keep the list's filters", () => {
    expect(listHref("/message/news/list.html", 1, 20)).toBe("/message/news/list.html");
    expect(listHref("/message/news/list.html", 2, 10)).toBe("/message/news/list.html?page=2&size=10");
    expect(listHref("/job/society/index.html", 3, 20, { jobTypeIds: "1,2", jobAddrIds: "" })).toBe(
      "/job/society/index.html?jobTypeIds=1,2&page=3",
    );
  });

  it("show every page up to 7, else the ends and two either side of the current page", () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 5, 6, "gap-after", 20]);
    expect(pageItems(10, 20)).toEqual([1, "gap-before", 8, 9, 10, 11, 12, "gap-after", 20]);
    expect(pageItems(20, 20)).toEqual([1, "gap-before", 15, 16, 17, 18, 19, 20]);
    // A page past the end (an old link) still offers the way back.
    expect(pageItems(99, 20)).toEqual([1, "gap-before", 15, 16, 17, 18, 19, 20]);
  });

  it("keep the first item in view when the size changes", () => {
    expect(pageAfterResize({ page: 2, size: 20 }, 10)).toBe(3);
    expect(pageAfterResize({ page: 3, size: 10 }, 50)).toBe(1);
    expect(pageAfterResize({ page: 7, size: 10 }, 50)).toBe(2);
    expect(pageAfterResize({ page: 1, size: 100 }, 1)).toBe(1);
  });
});
