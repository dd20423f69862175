/** Each page's name in Traditional Chinese: in the browser, loaded with the Traditional Chinese interface strings (client/i18n/messages-zh-tw.ts). */
import type { PageTitles } from "./table.ts";

export const TITLES: PageTitles = {
  about: "公司簡介",
  founders: "創始團隊",
  milestones: "發展歷程",
  contact: "聯絡我們",
  home: "首頁",
  jobSocietyList: "社會招聘",
  jobSchoolList: "校園招聘",
  jobSocietyDetail: "社會招聘職位",
  jobSchoolDetail: "校園招聘職位",
  newsDetail: "新聞詳情",
  noticeDetail: "公告詳情",
  newsList: "新聞動態",
  noticeList: "通知公告",
  productDetail: "產品詳情",
  serviceDetail: "服務詳情",
  search: "站內搜尋",
  productList: "產品中心",
  serviceList: "服務與方案",
};
