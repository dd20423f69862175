/** The page of one product and of one service; their lists are sections of the home page. */
import { keys } from "../data-keys.ts";
import { type Crumb, definePage } from "../page-route.ts";

export const productDetail = definePage({
  id: "productDetail",
  path: "/product",
  title: { "zh-CN": "产品详情", en: "Product" },
  detail: { key: keys.product, kind: "offering", items: { call: "productList", paged: false } },
  breadcrumb: (): Crumb[] => [
    {
      name: {
        "zh-CN": "产品中心",
        en: "Products",
        "zh-TW": "產品中心",
        ja: "製品一覧",
        ko: "제품",
        es: "Productos",
        fr: "Produits",
        de: "Produkte",
        ru: "Продукты",
        ar: "المنتجات",
      },
      href: "/index.html#product-list",
    },
  ],
});

export const serviceDetail = definePage({
  id: "serviceDetail",
  path: "/service",
  title: { "zh-CN": "服务详情", en: "Service" },
  detail: { key: keys.service, kind: "offering", items: { call: "serviceList", paged: false } },
  breadcrumb: (): Crumb[] => [
    {
      name: {
        "zh-CN": "服务与方案",
        en: "Services",
        "zh-TW": "服務與方案",
        ja: "サービス・ソリューション",
        ko: "서비스 및 솔루션",
        es: "Servicios",
        fr: "Services",
        de: "Leistungen",
        ru: "Услуги",
        ar: "الخدمات",
      },
      href: "/index.html#service-list",
    },
  ],
});
