/**
 * Every interface string (not content) in both languages. Chinese is the reference;
 * English must have the same keys (the type enforces it).
 */
const zh = {
  "page.home": "首页",
  "page.about": "公司简介",
  "page.founders": "创始团队",
  "page.milestones": "发展历程",
  "page.newsList": "新闻动态",
  "page.noticeList": "通知公告",
  "page.newsDetail": "新闻详情",
  "page.noticeDetail": "公告详情",
  "page.productDetail": "产品详情",
  "page.serviceDetail": "服务详情",
  "page.jobSocietyList": "社会招聘",
  "page.jobSchoolList": "校园招聘",
  "page.jobSocietyDetail": "社会招聘职位",
  "page.jobSchoolDetail": "校园招聘职位",
  "state.loading": "加载中…",
  "state.error": "内容暂时无法加载",
  "state.errorTimeout": "加载超时，请稍后再试",
  "state.retry": "重试",
  "state.reload": "重新加载",
  "state.notFound": "没有找到这个页面的内容",
  "state.backHome": "返回首页",
  "state.empty": "暂无内容",
  "lang.switch": "English",
  "lang.label": "切换语言",
} as const;

export type MessageKey = keyof typeof zh;

const en: Record<MessageKey, string> = {
  "page.home": "Home",
  "page.about": "About us",
  "page.founders": "Founders",
  "page.milestones": "Milestones",
  "page.newsList": "News",
  "page.noticeList": "Notices",
  "page.newsDetail": "News",
  "page.noticeDetail": "Notice",
  "page.productDetail": "Product",
  "page.serviceDetail": "Service",
  "page.jobSocietyList": "Experienced hires",
  "page.jobSchoolList": "Campus recruitment",
  "page.jobSocietyDetail": "Experienced hire position",
  "page.jobSchoolDetail": "Campus position",
  "state.loading": "Loading…",
  "state.error": "This content could not be loaded",
  "state.errorTimeout": "Loading timed out; please try again",
  "state.retry": "Retry",
  "state.reload": "Reload",
  "state.notFound": "Nothing was found here",
  "state.backHome": "Back to the home page",
  "state.empty": "Nothing here yet",
  "lang.switch": "中文",
  "lang.label": "Language",
};

export const MESSAGES: Record<"zh-CN" | "en", Record<MessageKey, string>> = { "zh-CN": zh, en };
