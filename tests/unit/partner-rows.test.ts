import { describe, expect, it } from "vitest";
import { partnerRows, rowMoves } from "../../client/home/partner-rows.ts";

const sizes = (count: number) => partnerRows(Array.from({ length: count }, (_, i) => i)).map((row) => row.length);

describe("partner rows (docs/behaviour.md#home-page)", () => {
  it("puts 6 or fewer partners in total on one row, and none on no row", () => {
    expect(sizes(0)).toEqual([]);
    for (const count of [1, 2, 5, 6]) expect(sizes(count)).toEqual([count]);
  });

  it("fills rows of 10 and keeps a remainder of 7 or more as a row of its own", () => {
    expect(sizes(7)).toEqual([7]);
    expect(sizes(10)).toEqual([10]);
    expect(sizes(17)).toEqual([10, 7]);
    expect(sizes(20)).toEqual([10, 10]);
    expect(sizes(27)).toEqual([10, 10, 7]);
    expect(sizes(50)).toEqual([10, 10, 10, 10, 10]);
  });

  it("merges a remainder of 6 or fewer into the row before it", () => {
    expect(sizes(11)).toEqual([11]);
    expect(sizes(16)).toEqual([16]);
    expect(sizes(23)).toEqual([10, 13]);
    expect(sizes(45)).toEqual([10, 10, 10, 15]);
  });

  it("shows at most 50 partners, in their order", () => {
    const rows = partnerRows(Array.from({ length: 57 }, (_, i) => i));
    expect(rows.map((row) => row.length)).toEqual([10, 10, 10, 10, 10]);
    expect(rows.flat()).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(partnerRows(Array.from({ length: 23 }, (_, i) => i))[1]).toEqual(Array.from({ length: 13 }, (_, i) => i + 10));
  });

  it("moves a row only when width / 200 is less than its count", () => {
    expect(rowMoves(1200, 6)).toBe(false);
    expect(rowMoves(1200, 7)).toBe(true);
    expect(rowMoves(1199, 6)).toBe(true);
    expect(rowMoves(343, 1)).toBe(false);
    expect(rowMoves(343, 2)).toBe(true);
  });
});
