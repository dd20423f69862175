/**
 * The embedded content API's paged messages, job list filters and reader counts over HTTP,
 * on SQLite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import type { SiteFile } from "../../../server/content/site-file.ts";
import type { Job, Message, Milestone } from "../../../shared/entities.ts";
import type { Paged } from "../../../shared/envelope.ts";
import { putReader } from "../../support/content-http.ts";
import { describeEachDatabase } from "../../support/databases.ts";
import { expectShape, SHAPES, withoutDetail } from "../../support/entity-shapes.ts";
import { serveFixtureSite } from "../../support/fixture-content-api.ts";
import { FIXTURE, MAX_ID } from "../../support/fixture-site.ts";

describeEachDatabase("content paging and readers", (databases) => {
  const { site, url, get } = serveFixtureSite(databases);

  describe("paged messages", () => {
    const newest = (items: SiteFile["news"]) =>
      [...items].sort((a, b) => b.dateTime.localeCompare(a.dateTime) || b.id - a.id).map(withoutDetail);

    it("pages news newest first (dateTime, then id), 0-based, without detail", async () => {
      const expected = newest(site.news);
      const pages = await Promise.all([0, 1, 2].map((i) => get<Paged<Message>>(`/message/news/list?pageIndex=${i}&pageMaxCount=10`)));
      for (const [i, { body }] of pages.entries()) {
        expect(body.data.totalCount).toBe(FIXTURE.news);
        expect(body.data.totalPageCount).toBe(3);
        expectShape(body.data.pageDataList, SHAPES.messageItem);
        expect(body.data.pageDataList).toEqual(expected.slice(i * 10, i * 10 + 10));
      }
      // The last page is partial; the tie on dateTime puts id 12 before id 11.
      expect(pages[2]?.body.data.pageDataList).toHaveLength(5);
      const ids = expected.map((m) => m.id);
      expect(ids.indexOf(12)).toBe(ids.indexOf(11) - 1);
    });

    it("answers an empty page past the end with the same totals", async () => {
      const { body } = await get<Paged<Message>>("/message/news/list?pageIndex=3&pageMaxCount=10");
      expect(body.data).toEqual({ pageDataList: [], totalCount: FIXTURE.news, totalPageCount: 3 });
      const far = await get<Paged<Message>>("/message/news/list?pageIndex=100000&pageMaxCount=100");
      expect(far.body.data).toEqual({ pageDataList: [], totalCount: FIXTURE.news, totalPageCount: 1 });
    });

    it("defaults to the first page of 20", async () => {
      const { body } = await get<Paged<Message>>("/message/news/list");
      expect(body.data.pageDataList).toEqual(newest(site.news).slice(0, 20));
      expect(body.data.totalPageCount).toBe(2);
      const empty = await get<Paged<Message>>("/message/news/list?pageIndex=&pageMaxCount=");
      expect(empty.body.data).toEqual(body.data);
    });

    it("pages notices separately from news", async () => {
      const { body } = await get<Paged<Message>>("/message/notice/list?pageIndex=1&pageMaxCount=3");
      expect(body.data.totalCount).toBe(FIXTURE.notices);
      expect(body.data.totalPageCount).toBe(3);
      expect(body.data.pageDataList).toEqual(newest(site.notices).slice(3, 6));
    });

    it("pages milestones newest first (date, then id)", async () => {
      const expected = [...site.milestones].sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
      const first = await get<Paged<Milestone>>("/plan/milepost/list?pageIndex=0&pageMaxCount=4");
      const second = await get<Paged<Milestone>>("/plan/milepost/list?pageIndex=1&pageMaxCount=4");
      expectShape(first.body.data.pageDataList, SHAPES.milestone);
      expect(first.body.data).toEqual({ pageDataList: expected.slice(0, 4), totalCount: FIXTURE.milestones, totalPageCount: 2 });
      expect(second.body.data.pageDataList).toEqual(expected.slice(4));
      expect(expected.slice(4).map((m) => m.id)).toEqual([2, 1, 3]);
    });
  });

  describe("job list", () => {
    const jobsWhere = (keep: (job: SiteFile["jobs"][number]) => boolean) => site.jobs.filter(keep).sort((a, b) => a.id - b.id);
    const jobIds = async (query: string) => {
      const { status, body } = await get<Paged<Job>>(`/job/job/list?pageMaxCount=100&${query}`);
      expect(status).toBe(200);
      expectShape(body.data.pageDataList, SHAPES.job);
      return body.data.pageDataList.map((j) => j.id);
    };

    it("lists all jobs in id order without filters", async () => {
      const { body } = await get<Paged<Job>>("/job/job/list?pageIndex=2&pageMaxCount=10");
      expect(body.data.totalCount).toBe(FIXTURE.jobs);
      expect(body.data.totalPageCount).toBe(3);
      expect(body.data.pageDataList.map((j) => j.id)).toEqual([21, 22, 23, 24]);
      expect(body.data.pageDataList[0]).toEqual(site.jobs.find((j) => j.id === 21));
    });

    it("filters by kind, job types and addresses, alone and combined", async () => {
      expect(await jobIds("type=1")).toEqual(jobsWhere((j) => j.type === 1).map((j) => j.id));
      expect(await jobIds("type=2")).toEqual(jobsWhere((j) => j.type === 2).map((j) => j.id));
      expect(await jobIds("jobTypeIds=1,3")).toEqual(jobsWhere((j) => [1, 3].includes(j.jobTypeId)).map((j) => j.id));
      expect(await jobIds("jobAddrIds=2")).toEqual(jobsWhere((j) => j.jobAddrId === 2).map((j) => j.id));
      const combined = jobsWhere((j) => j.type === 2 && [2, 4].includes(j.jobTypeId) && [1, 3].includes(j.jobAddrId));
      expect(combined.map((j) => j.id)).toEqual([2, 6, 14, 18]);
      expect(await jobIds("type=2&jobTypeIds=4,2&jobAddrIds=3,1")).toEqual(combined.map((j) => j.id));
      expect(await jobIds("jobTypeIds=999")).toEqual([]);
    });

    it("treats an empty id list as no filter", async () => {
      expect(await jobIds("jobTypeIds=&jobAddrIds=&type=")).toEqual(jobsWhere(() => true).map((j) => j.id));
    });

    it("counts only the matching jobs", async () => {
      const { body } = await get<Paged<Job>>("/job/job/list?type=1&jobAddrIds=1&pageMaxCount=3");
      const total = jobsWhere((j) => j.type === 1 && j.jobAddrId === 1).length;
      expect(body.data.totalCount).toBe(total);
      expect(body.data.totalPageCount).toBe(Math.ceil(total / 3));
    });
  });

  describe("readers", () => {
    it("counts a reader PUT and answers the count", async () => {
      expect((await get("/reader/reader?type=2&pid=1")).body).toEqual({ code: 0, msg: "ok", data: 40 });
      const put = await putReader(url(), { type: 2, pid: 1 });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ code: 0, msg: "ok", data: null });
      expect((await get("/reader/reader?pid=1&type=2")).body.data).toBe(41);
      // The same pid as a notice is another message with its own count.
      expect((await get("/reader/reader?type=1&pid=1")).body.data).toBe(0);
    });

    it("answers 404 for a PUT on a message that does not exist, and counts nothing", async () => {
      const put = await putReader(url(), { type: 1, pid: 20 });
      expect(put.status).toBe(404);
      expect(put.body).toEqual({ code: 404, msg: "no such item", data: null });
      expect((await get("/reader/reader?type=1&pid=20")).body.data).toBe(0);
    });

    it.each([
      ["a string pid", { type: 2, pid: "1" }],
      ["a string type", { type: "2", pid: 1 }],
      ["pid 0", { type: 2, pid: 0 }],
      ["pid 2^53", { type: 2, pid: MAX_ID + 1 }],
      ["a fractional pid", { type: 2, pid: 1.5 }],
      ["type 3", { type: 3, pid: 1 }],
      ["a missing pid", { type: 2 }],
      ["an extra field", { type: 2, pid: 1, count: 100 }],
      ["an array", [2, 1]],
      ["null", null],
      ["a bare number", 1],
      ["invalid JSON", '{"type":2,'],
      ["an empty body", ""],
    ])("answers 400 for a PUT body with %s", async (_what, body) => {
      const put = await putReader(url(), body);
      expect(put.status).toBe(400);
      expect(put.body).toEqual({ code: 400, msg: expect.any(String), data: null });
      expect(put.body.msg).not.toMatch(/at .*\.ts|node_modules/);
    });

    it("answers 413 for a body over 1 KB", async () => {
      const put = await putReader(url(), JSON.stringify({ type: 2, pid: 1, pad: "x".repeat(2000) }));
      expect(put.status).toBe(413);
      expect(put.body).toEqual({ code: 413, msg: expect.any(String), data: null });
    });

    it.each([
      ["no pid", "type=2"],
      ["no type", "pid=1"],
      ["type 0", "type=0&pid=1"],
      ["pid 0", "type=1&pid=0"],
      ["a signed pid", "type=1&pid=+1"],
    ])("answers 400 for a count query with %s", async (_what, query) => {
      const answer = await get(`/reader/reader?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe(400);
    });
  });
});
