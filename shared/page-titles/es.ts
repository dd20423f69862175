/** Each page's name in Spanish: in the browser, loaded with the Spanish interface strings (client/i18n/messages-es.ts). */
import type { PageTitles } from "./table.ts";

export const TITLES: PageTitles = {
  about: "Quiénes somos",
  founders: "Equipo fundador",
  milestones: "Trayectoria",
  contact: "Contacto",
  home: "Inicio",
  jobSocietyList: "Empleo para profesionales",
  jobSchoolList: "Empleo para recién titulados",
  jobSocietyDetail: "Oferta para profesionales",
  jobSchoolDetail: "Oferta para recién titulados",
  newsDetail: "Noticias",
  noticeDetail: "Aviso",
  newsList: "Noticias",
  noticeList: "Avisos",
  productDetail: "Producto",
  serviceDetail: "Servicio",
  search: "Buscar",
  productList: "Productos",
  serviceList: "Servicios",
};
