/**
 * A small but complete site file for the content tests, independent of the demo
 * site: file orders that differ from id order, ties in dates, an id of 2^53-1,
 * Chinese text, a deleted menu, and jobs spread over every type and address.
 */
import type { SiteFile } from "../../server/content/site-file.ts";
import type { Author } from "../../shared/entities.ts";

export const MAX_ID = Number.MAX_SAFE_INTEGER;

/** Counts the tests rely on. */
export const FIXTURE = { news: 25, notices: 7, milestones: 7, jobs: 24 } as const;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export function buildFixtureSite(): SiteFile {
  // News: 25 items, listed in the file in neither date nor id order; ids 11 and 12 share a dateTime.
  const news = Array.from({ length: FIXTURE.news }, (_, i) => {
    const id = ((i * 7) % FIXTURE.news) + 1;
    const day = id === 12 ? 11 : id;
    return {
      id,
      title: `新闻 ${id}`,
      brief: `第 ${id} 条新闻摘要`,
      img: `/media/news-${id}.jpg`,
      dateTime: `202401${pad(day)}0930${pad(day)}`,
      detail: `<p>新闻 ${id} 正文</p>`,
    };
  });

  const notices = Array.from({ length: FIXTURE.notices }, (_, i) => {
    const id = FIXTURE.notices - i;
    return {
      id,
      title: `公告 ${id}`,
      brief: `公告摘要 ${id}`,
      img: "",
      dateTime: `2023${pad(id)}01120000`,
      detail: `<p>公告 ${id}</p>`,
    };
  });

  const milestones = [
    { id: 3, date: "202001", brief: "公司成立" },
    { id: 1, date: "202106", brief: "A 轮融资" },
    { id: 2, date: "202106", brief: "第一个产品上线" },
    { id: 7, date: "202203", brief: "用户破百万" },
    { id: 5, date: "202212", brief: "海外业务" },
    { id: 4, date: "202305", brief: "新总部" },
    { id: 6, date: "202401", brief: "上市" },
  ];

  const jobs = Array.from({ length: FIXTURE.jobs }, (_, i) => {
    const id = FIXTURE.jobs - i; // file order is id descending; the API lists id ascending
    return {
      id,
      type: (id % 2 === 0 ? 2 : 1) as 1 | 2,
      name: `职位 ${id}`,
      jobAddrId: (id % 3) + 1,
      jobTypeId: (Math.floor(id / 2) % 4) + 1,
      salary: `${10 + id}k`,
      description: `职位 ${id} 描述`,
      requirement: `职位 ${id} 要求`,
      callHr: "hr@example.com",
    };
  });

  // Typed as the entity: site-file.ts's inferred type does not list the numbered fields.
  const author: Author = {
    name: "测试科技",
    fname: "北京测试科技有限公司",
    logo: "/media/logo.png",
    phone: "010-00000000",
    email: "contact@example.com",
    qq1: "10000",
    wx1: "test-wx",
    addr1: "北京市海淀区",
    addr2: "上海市浦东新区",
    qrcode1: "/media/qr-1.png",
  };

  return {
    version: 1,
    syscfg: {
      ico: "/media/favicon.ico",
      metaKeywords: "测试,公司",
      metaDescription: "一家测试公司",
      baiduVerify: "baidu-1",
      so360Verify: "so360-1",
      tencentVerify: "sogou-1",
      googleVerify: "google-1",
      themePortal: "1,2",
      copyright: "© 2024 测试科技",
      record: "京ICP备00000000号",
      edi: "京B2-00000000",
      policeRecord: "京公网安备00000000000000号",
    },
    sysauthor: author,
    indexhtml: { html: '<section class="intro"><h2>欢迎</h2></section>' },
    company: { brief: "<p>公司介绍</p>" },
    classify: [{ menuId: 2, api: "/api/portal/product/product/list", path: "/product" }],
    menus: [
      { id: 5, pid: 0, title: "首页", url: "/index.html", urlType: 1, delflag: 0 },
      { id: 2, pid: 0, title: "产品", url: "product", urlType: 1, delflag: 0 },
      { id: 3, pid: 0, title: "新闻", url: "news", urlType: 1, delflag: 0 },
      { id: 1, pid: 3, title: "旧菜单", url: "", urlType: 0, delflag: 1 },
      { id: 4, pid: 0, title: "外链", url: "https://example.com/", urlType: 2, delflag: 0 },
    ],
    slides: Array.from({ length: 12 }, (_, i) => ({
      id: 12 - i,
      title: `轮播 ${12 - i}`,
      url: `https://example.com/slide/${12 - i}`,
      img: `/media/slide-${12 - i}.jpg`,
    })),
    products: [
      { id: 3, name: "产品三", propImg: "/media/p3.png", detail: "<p>三</p>", type: 1 },
      { id: MAX_ID, name: "最大编号产品", propImg: "/media/pmax.png", detail: "<p>max</p>", type: 2 },
      { id: 1, name: "产品一", propImg: "/media/p1.png", detail: "<p>一</p>", type: 1 },
      { id: 2, name: "产品二", propImg: "/media/p2.png", detail: "<p>二</p>", type: 2 },
    ],
    services: [
      { id: 2, name: "服务二", detail: "<p>服务二</p>", type: 1 },
      { id: 1, name: "服务一", detail: "<p>服务一</p>", type: 0 },
      { id: 3, name: "服务三", detail: "<p>服务三</p>", type: 1 },
    ],
    news,
    notices,
    partners: [
      { id: 2, logo: "/media/partner-2.png", url: "https://partner2.example.com/" },
      { id: 1, logo: "/media/partner-1.png", url: "https://partner1.example.com/" },
      { id: 3, logo: "/media/partner-3.png", url: "" },
    ],
    founders: [
      { id: 2, picture: "/media/f2.jpg", name: "李四", job: "CTO", brief: "技术负责人" },
      { id: 1, picture: "/media/f1.jpg", name: "张三", job: "CEO", brief: "创始人" },
    ],
    milestones,
    jobTypes: [
      { id: 1, name: "研发" },
      { id: 2, name: "产品" },
      { id: 3, name: "设计" },
      { id: 4, name: "运营" },
    ],
    jobAddrs: [
      { id: 1, name: "北京" },
      { id: 2, name: "上海" },
      { id: 3, name: "深圳" },
    ],
    jobs,
    readers: [
      { type: 1, pid: 2, count: 5 },
      { type: 2, pid: 1, count: 40 },
      { type: 2, pid: 3, count: 0 },
    ],
  };
}
