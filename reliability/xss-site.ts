/**
 * The XSS run's seeded site: the demo content with a script payload in every field a page shows, each payload
 * tagged with its field so a run names the field that fired.
 */
import { htmlPayload, scriptOf, textPayload } from "../harness/hostile-content.ts";
import type { SiteFile } from "../server/content/site-file.ts";

const urlPayload = (id: string) => `javascript:${scriptOf(id)}`;
const imagePayload = (id: string) => `x" onerror="${scriptOf(id)}`;

/** The demo site with hostile content in every field a page shows; `layout` 2 shows the home html. */
export function seededSite(demo: SiteFile, layout: 1 | 2): { site: SiteFile; fields: number } {
  const site = structuredClone(demo);
  let fields = 0;
  /** Counts the fields it seeds. */
  const seed =
    (payload: (id: string) => string) =>
    (id: string): string => {
      fields++;
      return payload(id);
    };
  const text = seed(textPayload);
  const html = seed(htmlPayload);
  const url = seed(urlPayload);
  const image = seed(imagePayload);

  const cfg = site.syscfg;
  cfg.themePortal = `1,${layout}`;
  cfg.ico = image("cfg-ico");
  for (const key of [
    "metaKeywords",
    "metaDescription",
    "baiduVerify",
    "so360Verify",
    "tencentVerify",
    "googleVerify",
    "copyright",
    "record",
    "edi",
  ] as const) {
    cfg[key] = text(`cfg-${key}`);
  }
  cfg.policeRecord = text("cfg-policeRecord");
  const author = site.sysauthor;
  for (const key of ["name", "fname", "phone", "email", "qq1", "wx1", "addr1"] as const) author[key] = text(`author-${key}`);
  author.logo = image("author-logo");
  author.qrcode1 = image("author-qrcode1");
  site.indexhtml.html = html("home-html");
  site.company.brief = html("company-brief");
  const top = site.menus.find((m) => m.pid === 0);
  site.menus.push(
    { id: 9001, pid: 0, title: text("menu-external"), url: url("menu-external-url"), urlType: 2, delflag: 0 },
    { id: 9002, pid: 0, title: text("menu-internal"), url: url("menu-internal-url"), urlType: 1, delflag: 0 },
    {
      id: 9003,
      pid: top?.id ?? 0,
      title: text("menu-child"),
      url: `data:text/html,<script>${scriptOf("menu-data-url")}</script>`,
      urlType: 2,
      delflag: 0,
    },
    { id: 9004, pid: 0, title: text("menu-quote"), url: `/x" onmouseover="${scriptOf("menu-quote-url")}`, urlType: 1, delflag: 0 },
  );
  fields += 2;
  const slide = site.slides[0];
  if (slide) Object.assign(slide, { title: text("slide-title"), url: url("slide-url"), img: image("slide-img") });
  const product = site.products[0];
  if (product) Object.assign(product, { name: text("product-name"), propImg: image("product-img"), detail: html("product-detail") });
  const service = site.services[0];
  if (service) Object.assign(service, { name: text("service-name"), detail: html("service-detail") });
  for (const [kind, list] of [
    ["news", site.news],
    ["notice", site.notices],
  ] as const) {
    const message = list[0];
    if (message) {
      Object.assign(message, {
        // The newest, so it is on the first page of its list and on the home page.
        dateTime: "20301231235959",
        title: text(`${kind}-title`),
        brief: text(`${kind}-brief`),
        img: image(`${kind}-img`),
        detail: html(`${kind}-detail`),
      });
    }
  }
  const partner = site.partners[0];
  if (partner) Object.assign(partner, { logo: image("partner-logo"), url: url("partner-url") });
  const founder = site.founders[0];
  if (founder)
    Object.assign(founder, {
      picture: image("founder-picture"),
      name: text("founder-name"),
      job: text("founder-job"),
      brief: text("founder-brief"),
    });
  const milestone = site.milestones[0];
  if (milestone) Object.assign(milestone, { date: "203012", brief: text("milestone-brief") });
  const jobType = site.jobTypes[0];
  if (jobType) jobType.name = text("jobtype-name");
  const jobAddr = site.jobAddrs[0];
  if (jobAddr) jobAddr.name = text("jobaddr-name");
  for (const [kind, id] of [
    ["society", 1],
    ["school", 35],
  ] as const) {
    const job = site.jobs.find((j) => j.id === id);
    if (job) {
      Object.assign(job, {
        name: text(`job-${kind}-name`),
        salary: text(`job-${kind}-salary`),
        description: html(`job-${kind}-description`),
        requirement: html(`job-${kind}-requirement`),
        callHr: html(`job-${kind}-callHr`),
      });
    }
  }
  return { site, fields };
}
