import { keys } from "../data-keys.ts";
import { definePage } from "../page-route.ts";

export const home = definePage({
  id: "home",
  path: "/index.html",
  title: { "zh-CN": "首页", en: "Home" },
  dataKeys: () => [keys.slides(), keys.indexHtml(), keys.products(), keys.services(), keys.homeNews(), keys.homeNotices(), keys.partners()],
  feeds: ["news", "notice"],
});
