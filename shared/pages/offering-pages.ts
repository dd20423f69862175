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
      section: "productList",
      title: { "zh-CN": "产品中心", en: "Products" },
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
      section: "serviceList",
      title: { "zh-CN": "服务与方案", en: "Services" },
      href: "/index.html#service-list",
    },
  ],
});
