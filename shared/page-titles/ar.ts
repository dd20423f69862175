/** Each page's name in Arabic: in the browser, loaded with the Arabic interface strings (client/i18n/messages-ar.ts). */
import type { PageTitles } from "./table.ts";

export const TITLES: PageTitles = {
  about: "من نحن",
  founders: "الفريق المؤسس",
  milestones: "مسيرتنا",
  contact: "اتصل بنا",
  home: "الرئيسية",
  jobSocietyList: "وظائف ذوي الخبرة",
  jobSchoolList: "وظائف الخريجين",
  jobSocietyDetail: "وظيفة لذوي الخبرة",
  jobSchoolDetail: "وظيفة للخريجين",
  newsDetail: "الأخبار",
  noticeDetail: "إعلان",
  newsList: "الأخبار",
  noticeList: "الإعلانات",
  productDetail: "المنتج",
  serviceDetail: "الخدمة",
  search: "بحث",
  productList: "المنتجات",
  serviceList: "الخدمات",
};
