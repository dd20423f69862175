/** Addresses of the image endpoint for sources a CMS may hold: separators, spaces and non-ASCII stay inside `url`. */
import { expect, it } from "vitest";
import { IMAGE_PATH, imageUrl, responsiveImage } from "../../shared/image-url.ts";

const SOURCE = "https://cms.example/图 片/a b.jpg?x=1&w=9&q=1#top";

const paramsOf = (address: string) => new URL(address, "http://site.example").searchParams;

it("keeps a source's own ?, &, #, spaces and non-ASCII inside its url parameter", () => {
  expect(imageUrl(SOURCE, 640)).toBe(
    `${IMAGE_PATH}?url=https%3A%2F%2Fcms.example%2F%E5%9B%BE%20%E7%89%87%2Fa%20b.jpg%3Fx%3D1%26w%3D9%26q%3D1%23top&w=640&q=75`,
  );
});

it("gives every width of a responsive image the same source, its own width and one quality", () => {
  const image = responsiveImage(SOURCE, 320, 800);
  expect(paramsOf(image.src).get("url")).toBe(SOURCE);
  expect(paramsOf(image.src).get("w")).toBe("828");
  const entries = image.srcSet.split(", ").map((entry) => entry.split(" "));
  expect(entries.map(([, width]) => width)).toEqual(["384w", "640w", "828w", "1080w", "1280w", "1920w"]);
  for (const [address, width] of entries) {
    const params = paramsOf(address as string);
    expect([params.get("url"), params.getAll("w"), params.getAll("q")]).toEqual([SOURCE, [(width as string).slice(0, -1)], ["75"]]);
  }
});

it("leaves a data: source as it is, with no srcset", () => {
  const data = "data:image/png;base64,AAAA";
  expect(responsiveImage(data, 320, 800)).toEqual({ src: data, srcSet: "" });
  expect(imageUrl(data, 640)).toBe(data);
});
