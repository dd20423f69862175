import { describe, expect, it } from "vitest";
import { HOSTILE_SHAPES, htmlPayload } from "../../harness/hostile-content.ts";
import { sanitizeHtml } from "../../server/sanitize/sanitize-html.ts";
import { sanitizePayload } from "../../server/sanitize/sanitize-payload.ts";
import { DETAIL_IMAGE_SIZES, imageSrcSet, imageUrl } from "../../shared/image-url.ts";

const articleSrcSet = (src: string) => imageSrcSet(src, [384, 640, 828, 1080, 1280, 1920]).replaceAll("&", "&amp;");

describe("sanitizeHtml", () => {
  it.each([
    ["<p>ok<script>alert(1)</script></p>", "<p>ok</p>"],
    [
      '<img src="/x.png" onerror="alert(1)">',
      `<img src="${imageUrl("/x.png", 828).replaceAll("&", "&amp;")}" srcset="${articleSrcSet("/x.png")}" sizes="${DETAIL_IMAGE_SIZES}" loading="lazy" decoding="async" />`,
    ],
    // A source the image endpoint cannot read (a page-relative path, another scheme) leaves no image.
    ['<p><img src="x" onerror="alert(1)"></p>', "<p></p>"],
    ['<p><img src="data:image/png;base64,AAAA"><img src="//evil.example/a.png"></p>', "<p></p>"],
    // An upstream srcset would name images the page cannot load: it is replaced by the endpoint's.
    [
      '<img src="https://cms.example/a.jpg" srcset="https://evil.example/b.jpg 2x" sizes="1px">',
      `<img src="${imageUrl("https://cms.example/a.jpg", 828).replaceAll("&", "&amp;")}" srcset="${articleSrcSet("https://cms.example/a.jpg")}" sizes="${DETAIL_IMAGE_SIZES}" loading="lazy" decoding="async" />`,
    ],
    ['<svg onload="alert(1)"><circle/></svg>text', "text"],
    ['<a href="javascript:alert(1)">x</a>', "<a>x</a>"],
    ['<a href="JaVaScRiPt&#58;alert(1)">x</a>', "<a>x</a>"],
    ['<a href="data:text/html,<script>1</script>">x</a>', "<a>x</a>"],
    ['<a href="https://e.example" target="_blank">x</a>', '<a href="https://e.example" target="_blank" rel="noopener noreferrer">x</a>'],
    ['<a href="https://e.example" rel="opener">x</a>', '<a href="https://e.example">x</a>'],
    [
      '<a href="https://e.example" target="_blank" rel="opener">x</a>',
      '<a href="https://e.example" target="_blank" rel="noopener noreferrer">x</a>',
    ],
    [
      '<a href="https://e.example" rel="opener" target="_BLANK">x</a>',
      '<a href="https://e.example" target="_BLANK" rel="noopener noreferrer">x</a>',
    ],
    [
      '<a href="https://e.example" target="other" rel="noopener">x</a>',
      '<a href="https://e.example" target="other" rel="noopener noreferrer">x</a>',
    ],
    ['<a href="https://e.example" target="" rel="opener">x</a>', '<a href="https://e.example">x</a>'],
    ['<a href="mailto:a@b.example">m</a><a href="tel:+86">t</a>', '<a href="mailto:a@b.example">m</a><a href="tel:+86">t</a>'],
    ['<p id="root" style="position:fixed" class="c">x</p>', '<p class="c">x</p>'],
    ["<iframe src=//e.example></iframe><form><input></form>", ""],
    ['<img src="//evil.example/x.png">', ""],
  ])("makes %s safe", (input, output) => {
    expect(sanitizeHtml(input)).toBe(output);
  });

  // What another instance sanitised is checked by sanitising it again (server/api-proxy/answer-codec.ts).
  it.each([
    ['<p><img src="/x.png" alt="a&amp;b" loading="eager" decoding="sync" width="3"></p>'],
    ['<img src="https://cms.example/a.jpg?x=1&amp;y=2" srcset="https://evil.example/b.jpg 2x">'],
    ['<img src="/portal/_img?url=https%3A%2F%2Fcms.example%2Fa.jpg&amp;w=64&amp;q=50">'],
    ['<img src="/portal/_img?w=64">'],
    ['<p>a &lt; b &amp; "c" \'d\' &nbsp; é</p><a href="https://e.example/?a=1&amp;b=2" target="_blank">x</a>'],
    [htmlPayload("twice")],
  ])("gives %s back unchanged when sanitised a second time", (input) => {
    const once = sanitizeHtml(input);
    expect(sanitizeHtml(once)).toBe(once);
  });

  it("takes an image endpoint address as the image it names", () => {
    const endpoint = imageUrl("https://cms.example/a.jpg", 64, 50);
    expect(sanitizeHtml(`<img src="${endpoint.replaceAll("&", "&amp;")}">`)).toBe(sanitizeHtml('<img src="https://cms.example/a.jpg">'));
  });
});

describe("sanitizePayload", () => {
  it("sanitises the HTML fields of items, lists and pages, and leaves other text alone", () => {
    const bad = "<b>x</b><script>1</script>";
    expect(sanitizePayload("/message/news/1", { title: bad, detail: bad })).toEqual({ title: bad, detail: "<b>x</b>" });
    expect(sanitizePayload("/product/product/list", [{ detail: bad }])).toEqual([{ detail: "<b>x</b>" }]);
    expect(sanitizePayload("/job/job/list", { pageDataList: [{ requirement: bad, callHr: bad }] })).toEqual({
      pageDataList: [{ requirement: "<b>x</b>", callHr: "<b>x</b>" }],
    });
    expect(sanitizePayload("/plan/company", { brief: bad })).toEqual({ brief: "<b>x</b>" });
    expect(sanitizePayload("/plan/milepost/list", { pageDataList: [{ brief: bad }] })).toEqual({ pageDataList: [{ brief: bad }] });
  });

  it("keeps a home script for the browser and sanitises home markup", () => {
    expect(sanitizePayload("/sys/indexhtml", { html: "useEval|container.textContent = '<b>'" })).toEqual({
      html: "useEval|container.textContent = '<b>'",
    });
    expect(sanitizePayload("/sys/indexhtml", { html: "<section onclick=x>hi</section>" })).toEqual({ html: "<section>hi</section>" });
  });

  describe.each(HOSTILE_SHAPES)("an HTML field sent as $name", (shape) => {
    const bad = '<meta http-equiv="refresh" content="0;url=https://evil.example"><img src=x onerror=alert(1)>';
    const hostile = () => shape.of(bad);
    /** Every value under an HTML field name, at any depth. */
    const htmlValues = (value: unknown, names: string[]): unknown[] =>
      Array.isArray(value)
        ? value.flatMap((item) => htmlValues(item, names))
        : value !== null && typeof value === "object"
          ? Object.entries(value).flatMap(([key, item]) => (names.includes(key) ? [item] : htmlValues(item, names)))
          : [];

    it.each([
      ["/message/news/1", { id: 1, title: "t", detail: hostile() }, ["detail"]],
      [
        "/product/product/list",
        [
          { id: 1, detail: hostile() },
          { id: 2, nested: { detail: hostile() } },
        ],
        ["detail"],
      ],
      [
        "/job/job/list",
        { pageDataList: [{ description: hostile(), requirement: hostile(), callHr: hostile() }] },
        ["description", "requirement", "callHr"],
      ],
      ["/plan/company", { brief: hostile() }, ["brief"]],
      ["/sys/indexhtml", { html: hostile() }, ["html"]],
      ["/sys/indexhtml", [{ html: hostile() }], ["html"]],
    ])("%s leaves it out, whatever it nests", (callPath, payload, names) => {
      const out = sanitizePayload(callPath, JSON.parse(JSON.stringify(payload)));
      for (const value of htmlValues(out, names)) expect(value, JSON.stringify(value)).toBeTypeOf("string");
      expect(JSON.stringify(out)).not.toMatch(/http-equiv|onerror/);
    });
  });

  it("keeps a useEval| script only when the home html is that string", () => {
    const script = "useEval|container.textContent = '<b>'";
    expect(sanitizePayload("/sys/indexhtml", { html: [script] })).toEqual({});
    expect(sanitizePayload("/sys/indexhtml", { html: { toString: script } })).toEqual({});
    // Only the home markup's call carries a script; a detail that looks like one is markup.
    const detail = `${script}<img src=x onerror=alert(1)>`;
    expect(sanitizePayload("/message/news/1", { detail })).toEqual({ detail: sanitizeHtml(detail) });
  });

  it("keeps an own __proto__ key as data, never as the prototype of what it returns", () => {
    const payload = JSON.parse('{"__proto__":{"detail":"<b onclick=alert(1)>x</b>","polluted":true},"id":1}');
    const out = sanitizePayload("/message/news/1", payload) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.polluted).toBeUndefined();
    expect(JSON.stringify(out)).toBe('{"__proto__":{"detail":"<b>x</b>","polluted":true},"id":1}');
  });
});
