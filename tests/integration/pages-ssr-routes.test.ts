/**
 * The inner pages (docs/behaviour.md#routes) of the embedded demo content as the built site
 * serves them: the company, founders and milestones, the news and notice lists and details.
 * The content is in the HTML (so it works without JavaScript), the document title follows the
 * rule, the status is 200 (404 for an unknown id), and the list state comes from the query.
 */
import { describe, expect, it } from "vitest";
import { formatDateTime, formatYearMonth } from "../../shared/dates.ts";
import type { Message } from "../../shared/entities.ts";
import { MILESTONE_PAGE_SIZE } from "../../shared/page-data.ts";
import { builtSiteForSuite } from "../support/built-site-suite.ts";
import { demo, MILESTONES, NAME, NEWS, NOTICES } from "../support/demo-lists.ts";
import { endpointSrc } from "../support/image-markup.ts";
import { bodyOf, currentPageOf, h1Of, hrefsIn, linkTextsIn, textOf, titleOf } from "../support/page-html.ts";

describe("inner pages from the embedded demo content", () => {
  const { get } = builtSiteForSuite();

  it("renders the company introduction", async () => {
    const res = await get("/portal/about/index.html");
    expect(res.status).toBe(200);
    expect(titleOf(res.text)).toBe(`${NAME} - 公司简介`);
    expect(h1Of(res.text)).toBe("公司简介");
    // The brief is HTML: its markup is rendered, not escaped.
    expect(bodyOf(res.text)).toContain("<h2>关于青禾数智</h2>");
    expect(textOf(res.text)).toContain("杭州青禾数智科技有限公司");
  });

  it("renders the founders under the full name plus 创始团队, each with picture, name, job and brief", async () => {
    const res = await get("/portal/about/member/index.html");
    expect(res.status).toBe(200);
    const heading = `${demo.sysauthor.fname}创始团队`;
    expect(titleOf(res.text)).toBe(`${NAME} - ${heading}`);
    expect(h1Of(res.text)).toBe(heading);
    const text = textOf(res.text);
    for (const founder of demo.founders) {
      expect(bodyOf(res.text)).toMatch(
        new RegExp(
          `<img[^>]*src="${endpointSrc(founder.picture)}"[^>]*srcSet="[^"]+"[^>]*alt="${founder.name}"[^>]*width="\\d+"[^>]*height="\\d+"`,
        ),
      );
      for (const field of [founder.name, founder.job, founder.brief]) expect(text).toContain(field);
    }
  });

  it("says Founders in English", async () => {
    const res = await get("/portal/en/about/member/index.html");
    // The company's full name in English too: the demo site has it translated.
    expect(h1Of(res.text)).toBe("Hangzhou Qinghe Intelligent Technology Co., Ltd. Founders");
  });

  it("renders the newest milestones first, as YYYY-MM, with a link to the next page for visitors without JavaScript", async () => {
    const res = await get("/portal/about/milepost/index.html");
    expect(res.status).toBe(200);
    expect(titleOf(res.text)).toBe(`${NAME} - 发展历程`);
    const dates = [...bodyOf(res.text).matchAll(/class="timeline-date"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(dates).toEqual(MILESTONES.slice(0, MILESTONE_PAGE_SIZE).map((m) => formatYearMonth(m.date)));
    expect(textOf(res.text)).toContain(MILESTONES[0]?.brief);
    expect(bodyOf(res.text)).toContain('href="/portal/about/milepost/index.html?page=2"');
  });

  it("renders the milestone page ?page= names, with a way back and no further link on the last page", async () => {
    const last = Math.ceil(MILESTONES.length / MILESTONE_PAGE_SIZE);
    const res = await get(`/portal/about/milepost/index.html?page=${last}`);
    expect(res.status).toBe(200);
    const text = textOf(res.text);
    for (const milestone of MILESTONES.slice((last - 1) * MILESTONE_PAGE_SIZE)) expect(text).toContain(milestone.brief);
    expect(text).not.toContain(MILESTONES[0]?.brief);
    expect(bodyOf(res.text)).not.toContain(`?page=${last + 1}`);
    expect(bodyOf(res.text)).toContain(`href="/portal/about/milepost/index.html${last - 1 > 1 ? `?page=${last - 1}` : ""}"`);
  });

  for (const [kind, all, heading, english] of [
    ["news", NEWS, "新闻动态", "News"],
    ["notice", NOTICES, "通知公告", "Notices"],
  ] as const) {
    it(`lists the first 20 ${kind} items newest first, with date, brief, image, total and paging`, async () => {
      const res = await get(`/portal/message/${kind}/list.html`);
      expect(res.status).toBe(200);
      expect(titleOf(res.text)).toBe(`${NAME} - ${heading}`);
      expect(h1Of(res.text)).toBe(heading);
      expect(linkTextsIn(res.text, "msg-item-title")).toEqual(all.slice(0, 20).map((m) => m.title));
      expect(hrefsIn(res.text, "msg-item-title")[0]).toBe(`/portal/message/${kind}/${all[0]?.id}`);
      const first = all[0] as Message;
      expect(textOf(res.text)).toContain(formatDateTime(first.dateTime));
      expect(textOf(res.text)).toContain(first.brief);
      expect(bodyOf(res.text)).toMatch(
        new RegExp(`<img[^>]*src="${endpointSrc(first.img)}"[^>]*width="\\d+" height="\\d+"[^>]*loading="lazy"`),
      );
      expect(textOf(res.text)).toContain(`共 ${all.length} 条`);
      expect(currentPageOf(res.text)).toBe("1");
      expect(bodyOf(res.text)).toContain(`href="/portal/message/${kind}/list.html?page=2"`);
      // The size selector and the quick jumper are a GET form back to this list.
      expect(bodyOf(res.text)).toMatch(new RegExp(`<form class="pager-form" action="/portal/message/${kind}/list.html" method="get">`));
      expect(bodyOf(res.text)).toMatch(/<select[^>]*name="size"/);
      expect(bodyOf(res.text)).toMatch(/<input[^>]*type="number"[^>]*name="page"/);
    });

    it(`shows ${kind} items 11–20 on page 2 of size 10, and keeps the size in the paging links`, async () => {
      const res = await get(`/portal/message/${kind}/list.html?page=2&size=10`);
      expect(res.status).toBe(200);
      expect(linkTextsIn(res.text, "msg-item-title")).toEqual(all.slice(10, 20).map((m) => m.title));
      expect(currentPageOf(res.text)).toBe("2");
      const body = bodyOf(res.text);
      expect(body).toContain(`href="/portal/message/${kind}/list.html?page=3&amp;size=10"`);
      expect(body).toContain(`href="/portal/message/${kind}/list.html?size=10"`);
      expect(body).toMatch(/<option value="10" selected="">/);
    });

    it(`falls back to page 1 and size 20 for bad ${kind} paging values, never failing`, async () => {
      for (const query of ["page=0&size=7", "page=-3&size=abc", "page=1e3&size=20.0", "page=x&size=", "page=99999999999"]) {
        const res = await get(`/portal/message/${kind}/list.html?${query}`);
        expect(res.status, query).toBe(200);
        expect(linkTextsIn(res.text, "msg-item-title"), query).toEqual(all.slice(0, 20).map((m) => m.title));
      }
    });

    it(`names the ${kind} list in English`, async () => {
      const res = await get(`/portal/en/message/${kind}/list.html`);
      expect(h1Of(res.text)).toBe(english);
      expect(textOf(res.text)).toContain(`${all.length} items`);
      // Links stay at English addresses.
      expect(bodyOf(res.text)).toContain(`href="/portal/en/message/${kind}/list.html?page=2"`);
    });

    it(`renders a ${kind} detail at both addresses with title, date, image and HTML detail`, async () => {
      const item = all[3] as Message;
      for (const url of [`/portal/message/${kind}/${item.id}`, `/portal/message/${kind}?id=${item.id}`]) {
        const res = await get(url);
        expect(res.status, url).toBe(200);
        expect(titleOf(res.text)).toBe(`${NAME} - ${item.title}`);
        expect(h1Of(res.text)).toBe(item.title);
        expect(textOf(res.text)).toContain(formatDateTime(item.dateTime));
        expect(bodyOf(res.text)).toMatch(new RegExp(`src="${endpointSrc(item.img)}"`));
        expect(bodyOf(res.text)).toMatch(/class="rich-html detail-body"><p>/);
        // The reader count is the browser's: the server shows no number.
        expect(bodyOf(res.text)).toMatch(/<span class="reader-count"[^>]*><\/span>/);
      }
    });

    it(`answers 404 with the not-found state for an unknown ${kind} id`, async () => {
      for (const url of [`/portal/message/${kind}/999999`, `/portal/message/${kind}?id=999999`, `/portal/message/${kind}?id=x`]) {
        const res = await get(url);
        expect(res.status, url).toBe(404);
        expect(h1Of(res.text)).toBe("没有找到这个页面的内容");
      }
    });
  }
});
