/** Each page's name in Japanese: in the browser, loaded with the Japanese interface strings (client/i18n/messages-ja.ts). */
import type { PageTitles } from "./table.ts";

export const TITLES: PageTitles = {
  about: "会社概要",
  founders: "創業メンバー",
  milestones: "沿革",
  contact: "お問い合わせ",
  home: "ホーム",
  jobSocietyList: "キャリア採用",
  jobSchoolList: "新卒採用",
  jobSocietyDetail: "キャリア採用の求人",
  jobSchoolDetail: "新卒採用の求人",
  newsDetail: "ニュース",
  noticeDetail: "お知らせ",
  newsList: "ニュース",
  noticeList: "お知らせ",
  productDetail: "製品情報",
  serviceDetail: "サービス",
  search: "サイト内検索",
  productList: "製品一覧",
  serviceList: "サービス・ソリューション",
};
