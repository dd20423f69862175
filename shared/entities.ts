/** Entity shapes (docs/behaviour.md#entities). */

export interface SiteConfig {
  ico: string;
  metaKeywords: string;
  metaDescription: string;
  baiduVerify: string;
  so360Verify: string;
  tencentVerify: string;
  googleVerify: string;
  themePortal: string;
  copyright: string;
  record: string;
  edi: string;
  policeRecord?: string;
}

type Numbered<Prefix extends string> = `${Prefix}${1 | 2 | 3 | 4 | 5}`;

export type Author = {
  name: string;
  fname: string;
  logo: string;
  phone: string;
  email: string;
} & { [K in Numbered<"qq" | "wx" | "addr" | "qrcode">]?: string };

const URL_TYPE = { none: 0, internal: 1, external: 2 } as const;
export type UrlType = (typeof URL_TYPE)[keyof typeof URL_TYPE];

export interface MenuItem {
  id: number;
  pid: number;
  title: string;
  url: string;
  urlType: UrlType;
  delflag: number;
}

export interface ClassifyItem {
  id: number;
  name: string;
  type: number;
}

export interface HomeHtml {
  html: string;
}

export interface Slide {
  title: string;
  url: string;
  img: string;
}

export interface Product {
  id: number;
  name: string;
  propImg: string;
  detail: string;
  type: number;
}

export interface Service {
  id: number;
  name: string;
  detail: string;
  type: number;
}

export const MESSAGE_KIND = { notice: 1, news: 2 } as const;
export type MessageKind = (typeof MESSAGE_KIND)[keyof typeof MESSAGE_KIND];

export interface Message {
  id: number;
  title: string;
  brief: string;
  img: string;
  dateTime: string;
  detail?: string;
}

export interface Partner {
  logo: string;
  url: string;
}

export interface Founder {
  picture: string;
  name: string;
  job: string;
  brief: string;
}

export interface Milestone {
  date: string;
  brief: string;
}

export interface CompanyIntro {
  brief: string;
}

const JOB_KIND = { society: 1, school: 2 } as const;
export type JobKind = (typeof JOB_KIND)[keyof typeof JOB_KIND];

export interface Job {
  id: number;
  name: string;
  jobAddrId: number;
  jobTypeId: number;
  salary: string;
  description: string;
  requirement: string;
  callHr: string;
  type: JobKind;
}

export interface JobType {
  id: number;
  name: string;
}

export interface JobAddr {
  id: number;
  name: string;
}

export interface ReaderRecord {
  type: MessageKind;
  pid: number;
}

/** A menu whose entries come from a data call (PORTAL_CLASSIFY). */
export interface ClassifyMenu {
  menuId: number;
  api: string;
  path: string;
}
