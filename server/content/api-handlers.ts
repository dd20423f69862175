/** What each GET call answers, by its id in shared/api-calls.ts; `undefined` from a detail is "no such item" (docs/behaviour.md#calls). */
import { type JobKind, MESSAGE_KIND, type MessageKind } from "../../shared/entities.ts";
import type { ContentDb } from "./db.ts";
import * as store from "./store.ts";
import type { TranslatedEntity } from "./translations.ts";

interface CallArgs {
  /** 0 for a call that is not a detail. */
  id: number;
  query: URLSearchParams;
  audience: store.Audience;
}

type CallHandler = (content: ContentDb, args: CallArgs) => Promise<unknown>;

const page = (query: URLSearchParams) => ({
  pageIndex: Number(query.get("pageIndex")),
  pageMaxCount: Number(query.get("pageMaxCount")),
});

const ids = (raw: string | null) => (raw ? raw.split(",").map(Number) : undefined);

const typeOf = <T extends number>(query: URLSearchParams) => (query.has("type") ? (Number(query.get("type")) as T) : undefined);

export const CALL_HANDLERS: Readonly<Record<string, CallHandler>> = {
  syscfg: (c) => store.getSiteConfig(c),
  sysauthor: (c) => store.getAuthor(c),
  menuList: (c) => store.listMenus(c),
  indexHtml: (c) => store.getHomeHtml(c),
  slideList: (c) => store.listSlides(c),
  productList: (c, { audience }) => store.listProducts(c, audience),
  product: (c, { id, audience }) => store.getProduct(c, id, audience),
  serviceList: (c, { audience }) => store.listServices(c, audience),
  service: (c, { id, audience }) => store.getService(c, id, audience),
  newsList: (c, { query, audience }) => store.listMessages(c, MESSAGE_KIND.news, page(query), audience),
  news: (c, { id, audience }) => store.getMessage(c, MESSAGE_KIND.news, id, audience),
  noticeList: (c, { query, audience }) => store.listMessages(c, MESSAGE_KIND.notice, page(query), audience),
  notice: (c, { id, audience }) => store.getMessage(c, MESSAGE_KIND.notice, id, audience),
  partnerList: (c) => store.listPartners(c),
  company: (c) => store.getCompanyIntro(c),
  founderList: (c) => store.listFounders(c),
  milestoneList: (c, { query }) => store.listMilestones(c, page(query)),
  jobTypeList: (c) => store.listJobTypes(c),
  jobAddrList: (c) => store.listJobAddrs(c),
  jobList: (c, { query, audience }) =>
    store.listJobs(
      c,
      {
        ...page(query),
        type: typeOf<JobKind>(query),
        jobTypeIds: ids(query.get("jobTypeIds")),
        jobAddrIds: ids(query.get("jobAddrIds")),
      },
      audience,
    ),
  job: (c, { id, audience }) => store.getJob(c, id, audience),
  readerCount: (c, { query }) => store.readerCount(c, Number(query.get("type")) as MessageKind, Number(query.get("pid"))),
};

/** Calls not named here have nothing to translate. */
export const CALL_ENTITIES: Readonly<Record<string, TranslatedEntity>> = {
  syscfg: "syscfg",
  sysauthor: "sysauthor",
  menuList: "menus",
  indexHtml: "indexhtml",
  slideList: "slides",
  productList: "products",
  product: "products",
  serviceList: "services",
  service: "services",
  newsList: "news",
  news: "news",
  noticeList: "notices",
  notice: "notices",
  company: "company",
  founderList: "founders",
  milestoneList: "milestones",
  jobTypeList: "jobTypes",
  jobAddrList: "jobAddrs",
  jobList: "jobs",
  job: "jobs",
};
