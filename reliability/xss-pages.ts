/** The pages the XSS run loads, the payload markers each must show as text, and the detail pages they link to. */

/** A page, the payload markers it must show as text, and a seeded detail page it links to (followed on the client). */
export interface PageSpec {
  path: string;
  markers: string[];
  follow?: { path: string; marker: string };
}
export const PAGES: PageSpec[] = [
  {
    path: "/portal/index.html",
    markers: ["XSS-slide-title", "XSS-product-name", "XSS-news-title", "XSS-menu-external", "XSS-cfg-copyright"],
    follow: { path: "/portal/message/news/1", marker: "XSS-news-detail" },
  },
  { path: "/portal/about/index.html", markers: ["XSS-company-brief"] },
  { path: "/portal/about/member/index.html", markers: ["XSS-founder-name", "XSS-founder-brief"] },
  { path: "/portal/about/milepost/index.html", markers: ["XSS-milestone-brief"] },
  {
    path: "/portal/message/news/list.html",
    markers: ["XSS-news-title", "XSS-news-brief"],
    follow: { path: "/portal/message/news/1", marker: "XSS-news-detail" },
  },
  {
    path: "/portal/message/notice/list.html",
    markers: ["XSS-notice-title"],
    follow: { path: "/portal/message/notice/1", marker: "XSS-notice-detail" },
  },
  { path: "/portal/message/news/1", markers: ["XSS-news-title", "XSS-news-detail"] },
  { path: "/portal/message/news/1?lang=en", markers: ["XSS-news-title", "XSS-news-detail"] },
  { path: "/portal/message/notice/1", markers: ["XSS-notice-title", "XSS-notice-detail"] },
  { path: "/portal/product/1", markers: ["XSS-product-name", "XSS-product-detail"] },
  { path: "/portal/service/1", markers: ["XSS-service-name", "XSS-service-detail"] },
  {
    path: "/portal/job/society/index.html",
    markers: ["XSS-job-society-name"],
    follow: { path: "/portal/job/society/1", marker: "XSS-job-society-description" },
  },
  {
    path: "/portal/job/school/index.html",
    markers: ["XSS-job-school-name"],
    follow: { path: "/portal/job/school/35", marker: "XSS-job-school-requirement" },
  },
  { path: "/portal/job/society/1", markers: ["XSS-job-society-name", "XSS-job-society-description", "XSS-job-society-callHr"] },
  { path: "/portal/job/school/35", markers: ["XSS-job-school-name", "XSS-job-school-requirement"] },
  { path: "/portal/message/news/99999", markers: ["XSS-menu-internal"] },
];
export const CUSTOM_HOME: PageSpec = {
  path: "/portal/index.html",
  markers: ["XSS-home-html", "XSS-slide-title"],
};
