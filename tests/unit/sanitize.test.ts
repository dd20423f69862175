import { describe, expect, it } from "vitest";
import { sanitizeHtml } from "../../server/sanitize/sanitize-html.ts";
import { sanitizePayload } from "../../server/sanitize/sanitize-payload.ts";

describe("sanitizeHtml", () => {
  it.each([
    ["<p>ok<script>alert(1)</script></p>", "<p>ok</p>"],
    ['<img src="x" onerror="alert(1)">', '<img src="x" loading="lazy" decoding="async" />'],
    ['<svg onload="alert(1)"><circle/></svg>text', "text"],
    ['<a href="javascript:alert(1)">x</a>', "<a>x</a>"],
    ['<a href="JaVaScRiPt&#58;alert(1)">x</a>', "<a>x</a>"],
    ['<a href="data:text/html,<script>1</script>">x</a>', "<a>x</a>"],
    ['<a href="https://e.example" target="_blank">x</a>', '<a href="https://e.example" target="_blank" rel="noopener noreferrer">x</a>'],
    ['<a href="mailto:a@b.example">m</a><a href="tel:+86">t</a>', '<a href="mailto:a@b.example">m</a><a href="tel:+86">t</a>'],
    ['<p id="root" style="position:fixed" class="c">x</p>', '<p class="c">x</p>'],
    ["<iframe src=//e.example></iframe><form><input></form>", ""],
    ['<img src="//evil.example/x.png">', ""],
  ])("makes %s safe", (input, output) => {
    expect(sanitizeHtml(input)).toBe(output);
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
});
