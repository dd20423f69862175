/** The job pages; a job's own kind decides its canonical page and breadcrumb, whichever path it was asked at. */
import { keys } from "../data-keys.ts";
import { type JobFilter, jobFilterOf, listPagingQuery } from "../list-query.ts";
import { type Crumb, definePage, type PageItem, type PageRoute } from "../page-route.ts";

const jobListQuery = (query: URLSearchParams) => {
  const filter = jobFilterOf(query);
  return { jobTypeIds: filter.jobTypeIds.join(","), jobAddrIds: filter.jobAddrIds.join(","), ...listPagingQuery(query) };
};

const jobDetailOf = (id: number | undefined) => (id === undefined ? [] : [keys.job(id), keys.jobTypes(), keys.jobAddrs()]);

const canonicalFor = (item: PageItem | undefined): PageRoute | undefined =>
  item?.type === 1 ? jobSocietyDetail : item?.type === 2 ? jobSchoolDetail : undefined;

export const jobSocietyList = definePage({
  id: "jobSocietyList",
  path: "/job/society/index.html",
  title: { "zh-CN": "社会招聘", en: "Experienced hires" },
  query: jobListQuery,
  keys: { list: (filter: JobFilter) => keys.jobs(1, filter), types: keys.jobTypes, addrs: keys.jobAddrs },
  dataKeys: (_id, query) => [keys.jobTypes(), keys.jobAddrs(), keys.jobs(1, jobFilterOf(query))],
  itemPage: () => jobSocietyDetail,
  jobKind: 1,
});

export const jobSchoolList = definePage({
  id: "jobSchoolList",
  path: "/job/school/index.html",
  title: { "zh-CN": "校园招聘", en: "Campus recruitment" },
  query: jobListQuery,
  keys: { list: (filter: JobFilter) => keys.jobs(2, filter), types: keys.jobTypes, addrs: keys.jobAddrs },
  dataKeys: (_id, query) => [keys.jobTypes(), keys.jobAddrs(), keys.jobs(2, jobFilterOf(query))],
  itemPage: () => jobSchoolDetail,
  jobKind: 2,
});

export const jobSocietyDetail = definePage({
  id: "jobSocietyDetail",
  path: "/job/society",
  title: { "zh-CN": "社会招聘职位", en: "Experienced hire position" },
  detail: { key: keys.job, kind: "job", items: { call: "jobList", query: { type: 1 }, paged: true }, canonicalFor },
  keys: { types: keys.jobTypes, addrs: keys.jobAddrs },
  dataKeys: jobDetailOf,
  breadcrumb: (item): Crumb[] => [item?.type === 2 ? jobSchoolList : jobSocietyList],
  jobKind: 1,
});

export const jobSchoolDetail = definePage({
  id: "jobSchoolDetail",
  path: "/job/school",
  title: { "zh-CN": "校园招聘职位", en: "Campus position" },
  detail: { key: keys.job, kind: "job", items: { call: "jobList", query: { type: 2 }, paged: true }, canonicalFor },
  keys: { types: keys.jobTypes, addrs: keys.jobAddrs },
  dataKeys: jobDetailOf,
  breadcrumb: (item): Crumb[] => [item?.type === 1 ? jobSocietyList : jobSchoolList],
  jobKind: 2,
});
