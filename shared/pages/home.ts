/** The home page; its title, image and structured data are the company's. */
import { keys } from "../data-keys.ts";
import { definePage } from "../page-route.ts";

const homeKeys = {
  slides: keys.slides,
  html: keys.indexHtml,
  products: keys.products,
  services: keys.services,
  news: keys.homeNews,
  notices: keys.homeNotices,
  partners: keys.partners,
};

export const home = definePage({
  id: "home",
  path: "/index.html",
  title: { "zh-CN": "首页", en: "Home" },
  keys: homeKeys,
  dataKeys: () => Object.values(homeKeys).map((key) => key()),
  feeds: ["news", "notice"],
});
