/** Which codings an Accept-Encoding takes, as browsers, crawlers and odd clients write it. */
import { expect, it } from "vitest";
import { takesBr, takesGzip } from "../../server/http/content-codings.ts";

it.each([
  { header: "gzip, deflate, br, zstd", br: true, gzip: true },
  { header: "br;q=0.5, gzip;q=0.8", br: true, gzip: true },
  { header: "gzip;q=1, br;q=0", br: false, gzip: true },
  { header: "br;q=0.0, gzip;q=0.000", br: false, gzip: false },
  { header: "br; q=0, GZIP", br: false, gzip: true },
  { header: "BR", br: true, gzip: false },
  { header: "x-gzip, brotli", br: false, gzip: false },
  { header: "identity", br: false, gzip: false },
  { header: "", br: false, gzip: false },
  { header: "*", br: true, gzip: true },
  { header: "gzip;q=0, *", br: true, gzip: false },
  { header: "br, *;q=0", br: true, gzip: false },
  { header: "*;q=0", br: false, gzip: false },
  { header: "identity, *;q=0.1", br: true, gzip: true },
])("reads $header", ({ header, br, gzip }) => {
  expect(takesBr(header)).toBe(br);
  expect(takesGzip(header)).toBe(gzip);
});

it("takes nothing from no header", () => {
  expect(takesBr(undefined)).toBe(false);
  expect(takesGzip(undefined)).toBe(false);
});
