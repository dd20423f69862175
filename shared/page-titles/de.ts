/** Each page's name in German: in the browser, loaded with the German interface strings (client/i18n/messages-de.ts). */
import type { PageTitles } from "./table.ts";

export const TITLES: PageTitles = {
  about: "Über uns",
  founders: "Gründerteam",
  milestones: "Meilensteine",
  contact: "Kontakt",
  home: "Startseite",
  jobSocietyList: "Berufserfahrene",
  jobSchoolList: "Absolventen",
  jobSocietyDetail: "Stelle für Berufserfahrene",
  jobSchoolDetail: "Stelle für Absolventen",
  newsDetail: "Neuigkeiten",
  noticeDetail: "Mitteilung",
  newsList: "Neuigkeiten",
  noticeList: "Mitteilungen",
  productDetail: "Produkt",
  serviceDetail: "Leistung",
  search: "Suche",
  productList: "Produkte",
  serviceList: "Leistungen",
};
