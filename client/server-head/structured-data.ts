/** schema.org JSON-LD for the page's head (data blocks, never executed, so the CSP allows them). */

import { absoluteUrl } from "../../shared/absolute-url.ts";
import { keys } from "../../shared/data-keys.ts";
import { toIsoDate } from "../../shared/dates.ts";
import type { Author, Job, Message } from "../../shared/entities.ts";
import type { Lang } from "../../shared/page-state.ts";
import { pageTitle } from "../../shared/page-titles.ts";
import { home } from "../../shared/pages/home.ts";
import { BASE_PATH, isHome, langPath, pageHref, type RouteMatch } from "../../shared/routes.ts";
import { baseLang } from "../../shared/site-langs.ts";
import { namedItemsOf, textOf } from "../data/content-values.ts";
import type { ReadPayload } from "../page-title.ts";
import { detailItem } from "./page-meta.ts";
import { imageUrl } from "./seo-urls.ts";

type JsonLd = Record<string, unknown>;

export function jsonLdScript(data: JsonLd): string {
  const json = JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `<script type="application/ld+json">${json}</script>`;
}

interface StructuredDataInput {
  match: RouteMatch;
  read: ReadPayload;
  lang: Lang;
  contentLang: Lang;
  origin: string | undefined;
  canonical: string;
  /** Without a language: the page's place in the breadcrumb trail. */
  path: string;
  image: string | undefined;
  title: string;
  description: string;
}

const CONTEXT = "https://schema.org";

function compact<T extends JsonLd>(data: T): T {
  return Object.fromEntries(
    Object.entries(data).filter(([, value]) => value !== undefined && value !== "" && !(Array.isArray(value) && value.length === 0)),
  ) as T;
}

function organization(read: ReadPayload, origin: string | undefined, full: boolean, lang: Lang = baseLang()): JsonLd {
  const author = read<Author>(keys.sysauthor());
  const logo = imageUrl(origin, author?.logo);
  const base = compact({
    "@type": "Organization",
    name: textOf(author?.name) || textOf(author?.fname),
    url: absoluteUrl(origin, pageHref(home, undefined, lang)),
    logo: logo ? { "@type": "ImageObject", url: logo } : undefined,
  });
  if (!full) return base;
  const addresses = ([1, 2, 3, 4, 5] as const)
    .map((n) => textOf(author?.[`addr${n}`]).trim())
    .filter((addr): addr is string => Boolean(addr))
    .map((addr) => ({ "@type": "PostalAddress", streetAddress: addr, addressCountry: "CN" }));
  return compact({
    ...base,
    logo,
    legalName: textOf(author?.fname),
    email: textOf(author?.email),
    telephone: textOf(author?.phone),
    address: addresses,
  });
}

interface NamedCrumb {
  name: string;
  path?: string;
}

/** Home, the trail its route module gives (the page itself by default), then a detail's item. */
function crumbsOf({ match, read, lang, path }: StructuredDataInput): NamedCrumb[] {
  const { route } = match;
  const item = detailItem(match, read);
  const own = textOf(item?.title) || textOf(item?.name);
  const trail = route.breadcrumb?.(item) ?? (route.detail ? [] : [route]);
  const crumbs = [home, ...trail].map((step) =>
    "id" in step
      ? { name: pageTitle(step, lang), path: pageHref(step, undefined, lang) }
      : { name: pageTitle(step, lang), path: BASE_PATH + langPath(step.href, lang) },
  );
  if (route.detail && own) crumbs.push({ name: own, path });
  return crumbs;
}

function breadcrumbList(input: StructuredDataInput): JsonLd {
  const crumbs = crumbsOf(input);
  return {
    "@context": CONTEXT,
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((crumb, index) =>
      compact({
        "@type": "ListItem",
        position: index + 1,
        name: crumb.name,
        item: crumb.path && absoluteUrl(input.origin, crumb.path),
      }),
    ),
  };
}

function newsArticle(input: StructuredDataInput, message: Partial<Message>): JsonLd {
  const publisher = organization(input.read, input.origin, false);
  return compact({
    "@context": CONTEXT,
    "@type": "NewsArticle",
    headline: textOf(message.title),
    inLanguage: input.contentLang,
    description: input.description,
    datePublished: toIsoDate(message.dateTime),
    image: input.image ? [input.image] : undefined,
    author: publisher,
    publisher,
    mainEntityOfPage: { "@type": "WebPage", "@id": input.canonical },
  });
}

/** Campus positions are internships when their name says so. */
export function employmentTypeOf(job: Partial<Job>): "FULL_TIME" | "INTERN" {
  if (job.type !== 2) return "FULL_TIME";
  return /实习|intern/i.test(textOf(job.name)) ? "INTERN" : "FULL_TIME";
}

function jobPosting(input: StructuredDataInput, job: Partial<Job>): JsonLd {
  const place = namedItemsOf(input.read(keys.jobAddrs())).find((a) => a.id === job.jobAddrId)?.name;
  const description = [job.description, job.requirement].filter((html) => typeof html === "string" && html.trim()).join("\n");
  // No date: the data has none, and schema.org's datePosted must not be invented.
  return compact({
    "@context": CONTEXT,
    "@type": "JobPosting",
    title: textOf(job.name),
    description: description || input.description,
    hiringOrganization: organization(input.read, input.origin, false),
    jobLocation: {
      "@type": "Place",
      address: compact({ "@type": "PostalAddress", addressLocality: place, addressCountry: "CN" }),
    },
    // A job without its own kind is of the kind of the page it is shown on.
    employmentType: employmentTypeOf({ ...job, type: job.type ?? input.match.route.jobKind ?? 1 }),
    url: input.canonical,
  });
}

function webPage(input: StructuredDataInput): JsonLd {
  return compact({
    "@context": CONTEXT,
    "@type": "WebPage",
    "@id": input.canonical,
    url: input.canonical,
    name: input.title,
    inLanguage: input.contentLang,
  });
}

export function structuredData(input: StructuredDataInput): JsonLd[] {
  const { match } = input;
  if (isHome(match.route)) return [{ "@context": CONTEXT, ...organization(input.read, input.origin, true, input.lang) }, webPage(input)];
  const blocks: JsonLd[] = [];
  const item = detailItem(match, input.read);
  const kind = match.route.detail?.kind;
  if (item && kind === "message") blocks.push(newsArticle(input, item));
  if (item && kind === "job") blocks.push(jobPosting(input, item));
  blocks.push(breadcrumbList(input), webPage(input));
  return blocks;
}
