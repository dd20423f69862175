/** Each page's name in Korean: in the browser, loaded with the Korean interface strings (client/i18n/messages-ko.ts). */
import type { PageTitles } from "./table.ts";

export const TITLES: PageTitles = {
  about: "회사 소개",
  founders: "창업팀",
  milestones: "연혁",
  contact: "문의하기",
  home: "홈",
  jobSocietyList: "경력 채용",
  jobSchoolList: "신입 채용",
  jobSocietyDetail: "경력 채용 공고",
  jobSchoolDetail: "신입 채용 공고",
  newsDetail: "뉴스",
  noticeDetail: "공지사항",
  newsList: "뉴스",
  noticeList: "공지사항",
  productDetail: "제품 정보",
  serviceDetail: "서비스",
  search: "사이트 검색",
  productList: "제품",
  serviceList: "서비스 및 솔루션",
};
