/** The JSON type of every field of each content entity, and a check of answers against them, for the content API suites. */
import { expect } from "vitest";
import type { SiteFile } from "../../server/content/site-file.ts";
import type {
  Founder,
  Job,
  JobAddr,
  JobType,
  MenuItem,
  Message,
  Milestone,
  Partner,
  Product,
  Service,
  Slide,
} from "../../shared/entities.ts";

export type FieldKind = "number" | "string";
/** Every field of an entity with its JSON type: `satisfies` keeps these lists in step with shared/entities.ts. */
export const SHAPES = {
  menu: { id: "number", pid: "number", title: "string", url: "string", urlType: "number", delflag: "number" } satisfies Record<
    keyof MenuItem,
    FieldKind
  >,
  slide: { id: "number", title: "string", url: "string", img: "string" } satisfies Record<keyof Slide | "id", FieldKind>,
  product: { id: "number", name: "string", propImg: "string", detail: "string", type: "number" } satisfies Record<keyof Product, FieldKind>,
  service: { id: "number", name: "string", detail: "string", type: "number" } satisfies Record<keyof Service, FieldKind>,
  messageItem: { id: "number", title: "string", brief: "string", img: "string", dateTime: "string" } satisfies Record<
    Exclude<keyof Message, "detail">,
    FieldKind
  >,
  message: { id: "number", title: "string", brief: "string", img: "string", dateTime: "string", detail: "string" } satisfies Record<
    keyof Message,
    FieldKind
  >,
  partner: { id: "number", logo: "string", url: "string" } satisfies Record<keyof Partner | "id", FieldKind>,
  founder: { id: "number", picture: "string", name: "string", job: "string", brief: "string" } satisfies Record<
    keyof Founder | "id",
    FieldKind
  >,
  milestone: { id: "number", date: "string", brief: "string" } satisfies Record<keyof Milestone | "id", FieldKind>,
  named: { id: "number", name: "string" } satisfies Record<keyof JobType & keyof JobAddr, FieldKind>,
  job: {
    id: "number",
    name: "string",
    jobAddrId: "number",
    jobTypeId: "number",
    salary: "string",
    description: "string",
    requirement: "string",
    callHr: "string",
    type: "number",
  } satisfies Record<keyof Job, FieldKind>,
} as const;

export function expectShape(items: unknown[], shape: Record<string, FieldKind>) {
  for (const item of items) {
    expect(Object.keys(item as object).sort()).toEqual(Object.keys(shape).sort());
    for (const [field, kind] of Object.entries(shape)) expect(typeof (item as Record<string, unknown>)[field]).toBe(kind);
  }
}

/** The list as the API must answer it: the site file's entries, without fields the call leaves out. */
export const withoutDetail = ({ detail: _detail, ...item }: SiteFile["news"][number]) => item;
