/**
 * The content database's tables as Kysely sees them. Column names are snake_case in
 * SQL; queries alias them to the camelCase entity fields of shared/entities.ts.
 * Ids are `bigint` in PostgreSQL and INTEGER in SQLite, read back as JS numbers (all
 * ids stay below 2^53). `position` keeps the order of the site file, so an export
 * reproduces the file an import read.
 */
import type { JobKind, MessageKind, UrlType } from "../../shared/entities.ts";

/** Keys of the `setting` table; each value is one JSON document. */
export type SettingKey = "syscfg" | "sysauthor" | "indexhtml" | "company" | "classify";

export interface SettingTable {
  key: SettingKey;
  value: string;
}

export interface MenuTable {
  id: number;
  position: number;
  pid: number;
  title: string;
  url: string;
  url_type: UrlType;
  delflag: number;
}

export interface SlideTable {
  id: number;
  position: number;
  title: string;
  url: string;
  img: string;
}

export interface ProductTable {
  id: number;
  position: number;
  name: string;
  prop_img: string;
  detail: string;
  type: number;
}

export interface ServiceTable {
  id: number;
  position: number;
  name: string;
  detail: string;
  type: number;
}

/** News and notices in one table: `kind` 1 notice, 2 news; ids are unique per kind. */
export interface MessageTable {
  kind: MessageKind;
  id: number;
  position: number;
  title: string;
  brief: string;
  img: string;
  date_time: string;
  detail: string;
}

export interface PartnerTable {
  id: number;
  position: number;
  logo: string;
  url: string;
}

export interface FounderTable {
  id: number;
  position: number;
  picture: string;
  name: string;
  job: string;
  brief: string;
}

export interface MilestoneTable {
  id: number;
  position: number;
  date: string;
  brief: string;
}

export interface NamedTable {
  id: number;
  position: number;
  name: string;
}

export interface JobTable {
  id: number;
  position: number;
  type: JobKind;
  name: string;
  job_addr_id: number;
  job_type_id: number;
  salary: string;
  description: string;
  requirement: string;
  call_hr: string;
}

/** Reader counts per message: `type` is the message kind, `pid` its id. */
export interface ReaderTable {
  type: MessageKind;
  pid: number;
  count: number;
}

/** An item's fields in another language; `id` 0 for a setting. */
export interface TranslationTable {
  entity: string;
  id: number;
  lang: string;
  /** A JSON object of the translated fields. */
  fields: string;
}

export interface Database {
  setting: SettingTable;
  menus: MenuTable;
  slides: SlideTable;
  products: ProductTable;
  services: ServiceTable;
  messages: MessageTable;
  partners: PartnerTable;
  founders: FounderTable;
  milestones: MilestoneTable;
  job_types: NamedTable;
  job_addrs: NamedTable;
  jobs: JobTable;
  readers: ReaderTable;
  translations: TranslationTable;
}
