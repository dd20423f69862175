/** Each page's name in Russian: in the browser, loaded with the Russian interface strings (client/i18n/messages-ru.ts). */
import type { PageTitles } from "./table.ts";

export const TITLES: PageTitles = {
  about: "О компании",
  founders: "Основатели",
  milestones: "История компании",
  contact: "Контакты",
  home: "Главная",
  jobSocietyList: "Вакансии для специалистов",
  jobSchoolList: "Вакансии для выпускников",
  jobSocietyDetail: "Вакансия для специалистов",
  jobSchoolDetail: "Вакансия для выпускников",
  newsDetail: "Новости",
  noticeDetail: "Объявление",
  newsList: "Новости",
  noticeList: "Объявления",
  productDetail: "Продукт",
  serviceDetail: "Услуга",
  search: "Поиск",
  productList: "Продукты",
  serviceList: "Услуги",
};
