/** Each page's name in French: in the browser, loaded with the French interface strings (client/i18n/messages-fr.ts). */
import type { PageTitles } from "./table.ts";

export const TITLES: PageTitles = {
  about: "Qui sommes-nous",
  founders: "Équipe fondatrice",
  milestones: "Notre histoire",
  contact: "Contact",
  home: "Accueil",
  jobSocietyList: "Recrutement confirmé",
  jobSchoolList: "Recrutement jeunes diplômés",
  jobSocietyDetail: "Offre confirmé",
  jobSchoolDetail: "Offre jeune diplômé",
  newsDetail: "Actualités",
  noticeDetail: "Avis",
  newsList: "Actualités",
  noticeList: "Avis",
  productDetail: "Produit",
  serviceDetail: "Service",
  search: "Recherche",
  productList: "Produits",
  serviceList: "Services",
};
