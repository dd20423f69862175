/**
 * Every interface string in English, for every area of the site: loaded only when a page
 * is shown in English (see `loadMessages`). Its type makes it have exactly the Chinese keys.
 * A string with a count has its plural forms ("1 item", "2 items"): see plural.ts.
 */
import type { COMMON_MESSAGES } from "./messages-common.ts";
import type { HOME_MESSAGES } from "./messages-home.ts";
import type { PAGES_MESSAGES } from "./messages-pages.ts";
import type { SEARCH_MESSAGES } from "./messages-search.ts";
import type { SHELL_MESSAGES } from "./messages-shell.ts";
import type { Message } from "./plural.ts";

type Key =
  | keyof typeof COMMON_MESSAGES
  | keyof typeof SHELL_MESSAGES
  | keyof typeof HOME_MESSAGES
  | keyof typeof PAGES_MESSAGES
  | keyof typeof SEARCH_MESSAGES;

export const ENGLISH: Record<Key, Message> = {
  // Shared words (messages-common.ts)
  "state.loading": "Loading…",
  "state.error": "This content could not be loaded",
  "state.errorTimeout": "Loading timed out; please try again",
  "state.retry": "Retry",
  "state.reload": "Reload",
  "state.notFound": "Nothing was found here",
  "state.backHome": "Back to the home page",
  "state.empty": "Nothing here yet",

  // The frame of every page (messages-shell.ts)
  "shell.skip": "Skip to main content",
  "shell.home": "Home",
  "shell.nav": "Main navigation",
  "shell.menu": "Menu",
  "shell.submenu": "Show or hide “{title}”",
  "shell.newWindow": " (opens in a new window)",
  "shell.lang.label": "Switch language: ",
  "shell.lang.other": "中文",
  "shell.loading": "Loading the page",
  "shell.backToTop": "Back to top",
  "shell.error": "Something went wrong on this page",
  "shell.errorHint": "Please try again; if the problem persists, reload the page.",
  "footer.label": "Site information",
  "footer.offerings": "Products & Services",
  "footer.products": "Products",
  "footer.services": "Services",
  "footer.messages": "News & Announcements",
  "footer.about": "About Us",
  "footer.join": "Join Us",
  "footer.contact": "Contact",
  "footer.phone": "Phone",
  "footer.email": "Email",
  "footer.qq": "QQ",
  "footer.wechat": "WeChat",
  "footer.address": "Address",
  "footer.qrcodes": "Follow us",
  "footer.qrcode": "QR code {n}",
  "footer.qrcodeOpen": "Enlarge QR code {n}",
  "footer.close": "Close",
  "footer.rights": "All rights reserved",
  "footer.edi": "Value-added telecom licence: ",

  // The home page (messages-home.ts)
  "home.products": "Products",
  "home.services": "Services",
  "home.news": "News",
  "home.notices": "Notices",
  "home.partners": "Partners",
  "home.more": "More",
  "home.moreNews": "More news",
  "home.moreNotices": "More notices",
  "home.newTab": " (opens in a new tab)",
  "home.partnerLogo": "Partner {n}",
  "home.carousel": "Highlights",
  "home.carousel.role": "carousel",
  "home.carousel.slide": "slide",
  "home.carousel.slideOf": "{n} of {m}",
  "home.carousel.prev": "Previous slide",
  "home.carousel.next": "Next slide",
  "home.carousel.goTo": "Go to slide {n}",
  "home.carousel.pick": "Choose a slide",
  "home.carousel.pause": "Pause automatic slide show",
  "home.carousel.play": "Start automatic slide show",
  "home.noContent": "No content has been published yet",
  "home.noContentHint": "The site's content will appear here once it is published.",

  // The inner pages (messages-pages.ts)
  "pages.list.total": { one: "{n} item", other: "{n} items" },
  "pages.list.pagination": "Pages",
  "pages.list.previous": "Previous",
  "pages.list.next": "Next",
  "pages.list.pageN": "Page {n}",
  "pages.list.pagesSkipped": "Pages skipped",
  "pages.list.size": "Show",
  "pages.list.sizeOption": "{n} per page",
  "pages.list.jump": "Go to page",
  "pages.list.jumpUnit": "",
  "pages.list.go": "Go",
  "pages.list.pageOfPages": "Page {n} of {total}",
  "pages.message.published": "Published",
  "pages.message.readers": { one: "{n} read", other: "{n} reads" },
  "pages.message.readersPending": "Loading the read count",
  "pages.message.backNews": "Back to the news",
  "pages.message.backNotice": "Back to the notices",
  "pages.offering.backProducts": "All products",
  "pages.offering.backServices": "All services",
  "pages.milestones.timeline": "Timeline",
  "pages.milestones.more": "Earlier milestones",
  "pages.milestones.newer": "Later milestones",
  "pages.milestones.loadingMore": "Loading earlier milestones…",
  "pages.milestones.loadFailed": "Earlier milestones could not be loaded",
  "pages.milestones.end": "That is every milestone",
  "pages.founders.list": "Founding team",
  "pages.jobs.filter": "Filter jobs",
  "pages.jobs.filterCount": "Filter jobs ({n})",
  "pages.jobs.types": "Job category",
  "pages.jobs.addrs": "Location",
  "pages.jobs.apply": "Apply filters",
  "pages.jobs.clear": "Clear filters",
  "pages.jobs.close": "Close",
  "pages.jobs.active": "Filtered by:",
  "pages.jobs.salary": "Salary",
  "pages.jobs.type": "Category",
  "pages.jobs.addr": "Location",
  "pages.jobs.description": "Responsibilities",
  "pages.jobs.requirement": "Requirements",
  "pages.jobs.callHr": "How to apply",
  "pages.jobs.backSociety": "Back to experienced hires",
  "pages.jobs.backSchool": "Back to campus recruitment",
  "pages.jobs.emptyFiltered": "No job matches these filters; try others",
  "pages.jobs.unknown": "—",

  // The search page (messages-search.ts)
  "search.label": "Search for",
  "search.placeholder": "Products, news, notices, jobs",
  "search.submit": "Search",
  "search.again": "Search again",
  "search.header": "Site search",
  "search.headerLabel": "Search this site",
  "search.prompt": "Type a few words to search products, services, news, notices and jobs.",
  "search.count": { one: "{n} result for “{q}”", other: "{n} results for “{q}”" },
  "search.none": "Nothing matches “{q}”; try other words.",
  "search.facets": "Filter by kind",
  "search.all": "All",
  "search.type.news": "News",
  "search.type.notice": "Notices",
  "search.type.product": "Products",
  "search.type.service": "Services",
  "search.type.job": "Jobs",
  "search.results": "Search results",
};
