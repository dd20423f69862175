/**
 * Reads what the index is built from, judged as the API cache judges answers but not stored
 * there: a walk over every item would push visitors' answers out (docs/behaviour.md#search).
 */
import { createHash } from "node:crypto";
import { apiKey } from "../../shared/data-keys.ts";
import type { Job, Message, Product, Service } from "../../shared/entities.ts";
import { pageHref } from "../../shared/routes.ts";
import type { SearchType } from "../../shared/search.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import { httpErrorOf, upstreamPathOf } from "../api-proxy/api-reader.ts";
import type { UpstreamClient } from "../api-proxy/upstream-client.ts";
import { type CachedAnswer, jsonOf } from "../cache/response-cache.ts";
import { HttpError } from "../http/errors.ts";
import { readAllPages, readPayload } from "../seo/read-upstream.ts";
import type { SearchDoc } from "./index-file.ts";

/**
 * A key's `lang=en` is sent as CONTENT_LANG_PARAM. The answer is judged as the API cache
 * judges it, but its HTML is not made safe: the index keeps only its text (`textOfHtml`),
 * and sanitising every item of a walk was most of what a refresh cost the main thread.
 */
export function uncachedReader(upstream: UpstreamClient, contentLangParam?: string): Pick<ApiReader, "get"> {
  return {
    async get(key) {
      let res: Awaited<ReturnType<UpstreamClient["request"]>>;
      try {
        res = await upstream.request("GET", `/api/portal${upstreamPathOf(key, contentLangParam)}`);
      } catch (err) {
        throw httpErrorOf(err);
      }
      if (res.status !== 404 && (res.status < 200 || res.status > 299)) throw new HttpError(502, `upstream answered ${res.status}`);
      const json = envelopeOf(res.body);
      if (!json && res.status !== 404) throw new HttpError(502, "upstream answer is not a valid JSON envelope");
      const answer = { status: res.status === 404 ? 404 : 200, body: res.body, etag: "" };
      return { value: answer as CachedAnswer, status: "MISS", freshForMs: 0 };
    },
  };
}

function envelopeOf(body: Buffer): { code: number } | undefined {
  try {
    const json = JSON.parse(body.toString("utf8"));
    return json !== null && typeof json === "object" && !Array.isArray(json) && typeof json.code === "number" ? json : undefined;
  } catch {
    return undefined;
  }
}

export type ContentReader = Pick<ApiReader, "get">;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
const BLOCK = /^(p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|blockquote|pre|hr|dd|dt|figure|figcaption)$/i;

/** Block boundaries become spaces. */
export function textOfHtml(html: unknown): string {
  if (typeof html !== "string") return "";
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<\/?([a-zA-Z][a-zA-Z0-9]*)[^>]*>/g, (_, tag: string) => (BLOCK.test(tag) ? " " : ""))
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : " ";
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/gu, " ")
    .trim();
}

const text = (value: unknown) => (typeof value === "string" ? value.replace(/\s+/gu, " ").trim() : "");
const isId = (id: unknown): id is number => Number.isSafeInteger(id) && (id as number) > 0;
const fingerprintOf = (item: unknown) => createHash("sha1").update(JSON.stringify(item)).digest("base64url");

const DETAIL_KEYS: Record<SearchType, (id: number) => string> = {
  news: (id) => apiKey("news", { id }),
  notice: (id) => apiKey("notice", { id }),
  product: (id) => apiKey("product", { id }),
  service: (id) => apiKey("service", { id }),
  job: (id) => apiKey("job", { id }),
};

/** For a job's brief. */
export interface JobNames {
  types: Map<number, string>;
  addrs: Map<number, string>;
}

export function docOf(
  type: SearchType,
  item: Record<string, unknown>,
  jobNames?: JobNames,
  fingerprint = fingerprintOf(item),
): SearchDoc | undefined {
  if (!isId(item.id)) return undefined;
  const id = item.id;
  if (type === "news" || type === "notice") {
    const message = item as Partial<Message>;
    return {
      type,
      id,
      title: text(message.title),
      brief: text(message.brief),
      body: textOfHtml(message.detail),
      date: /^\d{8}(\d{6})?$/.test(String(message.dateTime ?? "")) ? String(message.dateTime) : "",
      url: pageHref(type === "news" ? "newsDetail" : "noticeDetail", id),
      fingerprint,
    };
  }
  if (type === "product" || type === "service") {
    const offering = item as Partial<Product & Service>;
    return {
      type,
      id,
      title: text(offering.name),
      brief: "",
      body: textOfHtml(offering.detail),
      date: "",
      url: pageHref(type === "product" ? "productDetail" : "serviceDetail", id),
      fingerprint,
    };
  }
  const job = item as Partial<Job>;
  const brief = [jobNames?.types.get(Number(job.jobTypeId)), jobNames?.addrs.get(Number(job.jobAddrId)), text(job.salary)].filter(
    (part) => part,
  );
  return {
    type,
    id,
    title: text(job.name),
    brief: brief.join(" · "),
    body: [job.description, job.requirement, job.callHr]
      .map(textOfHtml)
      .filter((part) => part)
      .join(" "),
    date: "",
    url: pageHref(job.type === 2 ? "jobSchoolDetail" : "jobSocietyDetail", id),
    fingerprint,
  };
}

/** The embedded content API's lists of messages do not carry their text. */
function listHasBody(type: SearchType, item: Record<string, unknown>): boolean {
  return type === "job" ? "description" in item || "requirement" in item : "detail" in item;
}

interface ListedItems {
  type: SearchType;
  items: Record<string, unknown>[];
}

export async function readLists(reader: ContentReader): Promise<{ lists: ListedItems[]; jobNames: JobNames }> {
  const paged = (call: string) => readAllPages<Record<string, unknown>>(reader as ApiReader, call).then((r) => r.items);
  const whole = (call: string) => readPayload<Record<string, unknown>[]>(reader as ApiReader, apiKey(call), "list");
  const [news, notice, product, service, job, types, addrs] = await Promise.all([
    paged("newsList"),
    paged("noticeList"),
    whole("productList"),
    whole("serviceList"),
    paged("jobList"),
    whole("jobTypeList").catch(() => []),
    whole("jobAddrList").catch(() => []),
  ]);
  const names = (list: unknown) =>
    new Map(
      (Array.isArray(list) ? list : [])
        .filter((e): e is { id: number; name: string } => isId(e?.id) && typeof e?.name === "string")
        .map((e) => [e.id, e.name]),
    );
  const lists: ListedItems[] = [
    { type: "news", items: news },
    { type: "notice", items: notice },
    { type: "product", items: Array.isArray(product) ? product : [] },
    { type: "service", items: Array.isArray(service) ? service : [] },
    { type: "job", items: job },
  ];
  return { lists, jobNames: { types: names(types), addrs: names(addrs) } };
}

/** null: no such item; throws when the read failed. */
export async function readDetail(reader: ContentReader, type: SearchType, id: number, jobNames?: JobNames): Promise<SearchDoc | null> {
  const { value } = await reader.get(DETAIL_KEYS[type](id));
  const envelope = jsonOf(value) as { code?: number; data?: unknown } | null;
  if (value.status === 404) return null;
  if (value.status !== 200 || envelope?.code !== 0) throw new Error(`${type} ${id} answered ${value.status} code ${envelope?.code}`);
  const data = envelope.data;
  if (data === null || typeof data !== "object" || Array.isArray(data) || Object.keys(data).length === 0) return null;
  return docOf(type, { ...(data as Record<string, unknown>), id }, jobNames) ?? null;
}

/** From the list entry when it carries the body, else the last index's when unchanged, else its detail. */
export async function docOfListed(
  reader: ContentReader,
  type: SearchType,
  item: Record<string, unknown>,
  jobNames: JobNames,
  previous: {
    fingerprintOf(type: SearchType, id: number): Promise<string | undefined>;
    docOf(type: SearchType, id: number): Promise<SearchDoc | undefined>;
  },
): Promise<SearchDoc | undefined> {
  if (!isId(item.id)) return undefined;
  const fingerprint = fingerprintOf(item);
  if (listHasBody(type, item)) return docOf(type, item, jobNames, fingerprint);
  if ((await previous.fingerprintOf(type, item.id)) === fingerprint) return previous.docOf(type, item.id);
  const detail = await readDetail(reader, type, item.id, jobNames);
  return detail ? { ...detail, fingerprint } : undefined;
}
