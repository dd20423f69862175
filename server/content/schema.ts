/**
 * The content database's tables as Kysely sees them; queries alias the snake_case columns to
 * shared/entities.ts's fields. `position` keeps the site file's order, so an export reproduces it.
 */
import type { JobKind, MessageKind, UrlType } from "../../shared/entities.ts";

/** Each value is one JSON document; `imported` is the mark each import writes, which running servers poll. */
export type SettingKey = "syscfg" | "sysauthor" | "indexhtml" | "company" | "classify" | "imported";

interface SettingTable {
  key: SettingKey;
  value: string;
}

interface MenuTable {
  id: number;
  position: number;
  pid: number;
  title: string;
  url: string;
  url_type: UrlType;
  delflag: number;
}

interface SlideTable {
  id: number;
  position: number;
  title: string;
  url: string;
  img: string;
}

/** Whether visitors may see an item (docs/behaviour.md#drafts-and-schedules); a preview sees every one. */
export type ItemStatus = "published" | "draft";

/** `publish_at`: milliseconds since 1970; null: as soon as published. */
interface Scheduled {
  status: ItemStatus;
  publish_at: number | null;
}

interface ProductTable extends Scheduled {
  id: number;
  position: number;
  name: string;
  prop_img: string;
  detail: string;
  type: number;
}

interface ServiceTable extends Scheduled {
  id: number;
  position: number;
  name: string;
  detail: string;
  type: number;
}

/** News and notices in one table: `kind` 1 notice, 2 news; ids are unique per kind. */
interface MessageTable extends Scheduled {
  kind: MessageKind;
  id: number;
  position: number;
  title: string;
  brief: string;
  img: string;
  date_time: string;
  detail: string;
}

interface PartnerTable {
  id: number;
  position: number;
  logo: string;
  url: string;
}

interface FounderTable {
  id: number;
  position: number;
  picture: string;
  name: string;
  job: string;
  brief: string;
}

interface MilestoneTable {
  id: number;
  position: number;
  date: string;
  brief: string;
}

interface NamedTable {
  id: number;
  position: number;
  name: string;
}

interface JobTable extends Scheduled {
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

interface ReaderTable {
  type: MessageKind;
  pid: number;
  count: number;
}

export type ChannelState = "pending" | "delivered" | "failed" | "off";

/** Times in milliseconds since 1970. */
export interface EnquiryTable {
  id: string;
  created_at: number;
  lang: string;
  name: string;
  email: string;
  phone: string;
  company: string;
  subject: string;
  message: string;
  consent_at: number;
  consent_version: string;
  client_hash: string;
  webhook_state: ChannelState;
  mail_state: ChannelState;
  attempts: number;
  /** null once nothing is pending. */
  next_attempt_at: number | null;
  /** An instance delivering it holds it until then. */
  lease_until: number | null;
  last_error: string | null;
}

interface EnquiryTokenTable {
  nonce: string;
  expires_at: number;
}

/** `id` 0 for a setting. */
interface TranslationTable {
  entity: string;
  id: number;
  lang: string;
  fields: string;
}

export type PushEngine = "indexnow" | "baidu";

/** One address waiting for (or lately sent to) one search engine; times in milliseconds since 1970. */
export interface PushQueueTable {
  engine: PushEngine;
  /** The site path, `/portal/...`: PUBLIC_ORIGIN is put in front as it is sent. */
  path: string;
  queued_at: number;
  /** null: nothing left to send (sent, or dropped). */
  next_attempt_at: number | null;
  attempts: number;
  lease_until: number | null;
  lease_owner: string | null;
  /** When it last reached the engine. */
  sent_at: number | null;
}

/** `baidu_paused_until` (ms), `baidu_remain` (the count Baidu last gave), `baidu_remain_until` (ms: when that count renews). */
interface PushStateTable {
  key: string;
  value: string;
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
  enquiries: EnquiryTable;
  enquiry_tokens: EnquiryTokenTable;
  translations: TranslationTable;
  push_queue: PushQueueTable;
  push_state: PushStateTable;
}
