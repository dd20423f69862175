/**
 * The product, service and job pages (docs/behaviour.md#routes) of the embedded demo content as
 * the built site serves them: in the HTML, titled by the rule, 404 for an unknown id, the job
 * filters from the query.
 */
import { describe, expect, it } from "vitest";
import type { Job, Product } from "../../shared/entities.ts";
import { builtSiteForSuite } from "../support/built-site-suite.ts";
import { demo, jobsOf, NAME } from "../support/demo-lists.ts";
import { endpointSrc } from "../support/image-markup.ts";
import { bodyOf, decode, h1Of, hrefsIn, linkTextsIn, textOf, titleOf } from "../support/page-html.ts";

describe("inner pages from the embedded demo content", () => {
  const { get } = builtSiteForSuite();

  for (const [kind, list] of [
    ["product", demo.products],
    ["service", demo.services],
  ] as const) {
    it(`renders a ${kind} at both addresses with its name, HTML detail${kind === "product" ? " and image" : ""}`, async () => {
      const item = list[2] as Product;
      for (const url of [`/portal/${kind}/${item.id}`, `/portal/${kind}?id=${item.id}`]) {
        const res = await get(url);
        expect(res.status, url).toBe(200);
        expect(titleOf(res.text)).toBe(`${NAME} - ${item.name}`);
        expect(h1Of(res.text)).toBe(item.name);
        expect(bodyOf(res.text)).toMatch(/class="rich-html detail-body"><(p|h2)/);
        // The product's picture shows once: the demo's details open with it, so it is not repeated above them.
        if (kind === "product") expect(bodyOf(res.text).match(new RegExp(` src="${endpointSrc(item.propImg)}"`, "g"))).toHaveLength(1);
      }
    });

    it(`answers 404 for an unknown ${kind}`, async () => {
      for (const url of [`/portal/${kind}/999999`, `/portal/${kind}?id=999999`, `/portal/${kind}`]) {
        const res = await get(url);
        expect(res.status, url).toBe(404);
        // The title says what the visitor got, not the page type's name (产品详情).
        expect(titleOf(res.text)).toBe(`${NAME} - 页面未找到`);
      }
    });
  }

  for (const [kind, type, heading] of [
    ["society", 1, "社会招聘"],
    ["school", 2, "校园招聘"],
  ] as const) {
    it(`lists ${kind} jobs with salary, type and address names, and links to their details`, async () => {
      const res = await get(`/portal/job/${kind}/index.html`);
      expect(res.status).toBe(200);
      expect(titleOf(res.text)).toBe(`${NAME} - ${heading}`);
      expect(h1Of(res.text)).toBe(heading);
      const jobs = jobsOf(type);
      expect(linkTextsIn(res.text, "job-item-name")).toEqual(jobs.slice(0, 20).map((j) => j.name));
      expect(hrefsIn(res.text, "job-item-name")[0]).toBe(`/portal/job/${kind}/${jobs[0]?.id}`);
      const first = jobs[0] as Job;
      const row = bodyOf(res.text).split('class="job-item"')[1] ?? "";
      expect(decode(row)).toContain(first.salary);
      expect(row).toContain(`<dd>${demo.jobTypes.find((t) => t.id === first.jobTypeId)?.name}</dd>`);
      expect(row).toContain(`<dd>${demo.jobAddrs.find((a) => a.id === first.jobAddrId)?.name}</dd>`);
      expect(textOf(res.text)).toContain(`共 ${jobs.length} 条`);
      // The filter form is in the HTML, working without JavaScript.
      expect(bodyOf(res.text)).toContain(`<form class="job-filter-form" action="/portal/job/${kind}/index.html" method="get">`);
      for (const t of demo.jobTypes) expect(bodyOf(res.text)).toContain(`name="jobTypeIds" value="${t.id}"`);
      for (const a of demo.jobAddrs) expect(bodyOf(res.text)).toContain(`name="jobAddrIds" value="${a.id}"`);
    });

    it(`filters ${kind} jobs by type and address ids from the query, comma-joined or repeated, keeping them in paging links`, async () => {
      const expected = jobsOf(type, [1, 2], [1, 2]);
      for (const query of [
        "jobTypeIds=1,2&jobAddrIds=2,1",
        "jobTypeIds=1&jobTypeIds=2&jobAddrIds=1&jobAddrIds=2",
        "jobTypeIds=2,1,,x&jobAddrIds=1,2,0",
      ]) {
        const res = await get(`/portal/job/${kind}/index.html?${query}`);
        expect(res.status, query).toBe(200);
        expect(linkTextsIn(res.text, "job-item-name"), query).toEqual(expected.slice(0, 20).map((j) => j.name));
        expect(bodyOf(res.text)).toMatch(/name="jobTypeIds" checked="" value="1"/);
        expect(bodyOf(res.text)).toMatch(/name="jobAddrIds" checked="" value="2"/);
        expect(bodyOf(res.text)).not.toMatch(/name="jobTypeIds" checked="" value="3"/);
      }
      const paged = await get(`/portal/job/${kind}/index.html?jobTypeIds=1&page=2&size=1`);
      const oneType = jobsOf(type, [1]);
      expect(linkTextsIn(paged.text, "job-item-name")).toEqual([oneType[1]?.name]);
      expect(bodyOf(paged.text)).toContain(`href="/portal/job/${kind}/index.html?jobTypeIds=1&amp;page=3&amp;size=1"`);
    });

    it(`drops bad ${kind} filter values and falls back to the defaults`, async () => {
      const all = await get(`/portal/job/${kind}/index.html?jobTypeIds=,,x&jobAddrIds=-1&page=0&size=7`);
      expect(all.status).toBe(200);
      expect(linkTextsIn(all.text, "job-item-name")).toEqual(
        jobsOf(type)
          .slice(0, 20)
          .map((j) => j.name),
      );
      const one = await get(`/portal/job/${kind}/index.html?jobTypeIds=1,,x`);
      expect(linkTextsIn(one.text, "job-item-name")).toEqual(
        jobsOf(type, [1])
          .slice(0, 20)
          .map((j) => j.name),
      );
    });

    it(`says when no ${kind} job matches the filter`, async () => {
      const res = await get(`/portal/job/${kind}/index.html?jobTypeIds=999`);
      expect(res.status).toBe(200);
      expect(textOf(res.text)).toContain("没有符合条件的职位");
      expect(textOf(res.text)).toContain("共 0 条");
    });

    it(`renders a ${kind} job at both addresses: name, salary, names, and the three HTML texts`, async () => {
      const job = jobsOf(type)[1] as Job;
      for (const url of [`/portal/job/${kind}/${job.id}`, `/portal/job/${kind}?id=${job.id}`]) {
        const res = await get(url);
        expect(res.status, url).toBe(200);
        expect(titleOf(res.text)).toBe(`${NAME} - ${job.name}`);
        expect(h1Of(res.text)).toBe(job.name);
        const body = bodyOf(res.text);
        expect(decode(body)).toContain(job.salary);
        expect(body).toContain(`<dd>${demo.jobTypes.find((t) => t.id === job.jobTypeId)?.name}</dd>`);
        expect(body).toContain(`<dd>${demo.jobAddrs.find((a) => a.id === job.jobAddrId)?.name}</dd>`);
        for (const section of ["职位描述", "任职要求", "应聘方式"]) expect(body).toContain(`<h2>${section}</h2>`);
        expect(body.match(/class="rich-html detail-body">/g)?.length).toBe(3);
        expect(body).toContain('class="rich-html detail-body"><ul><li>');
      }
    });

    it(`answers 404 for an unknown ${kind} job`, async () => {
      for (const url of [`/portal/job/${kind}/999999`, `/portal/job/${kind}?id=999999`]) {
        const res = await get(url);
        expect(res.status, url).toBe(404);
      }
    });
  }
});
