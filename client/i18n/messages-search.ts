/** The search page and the header's search form. `{n}` and `{q}` are filled in by `fill`. */
export const SEARCH_MESSAGES = {
  "search.label": "搜索关键词",
  "search.placeholder": "搜索产品、新闻、公告、职位",
  "search.submit": "搜索",
  "search.again": "重新搜索",
  "search.prompt": "输入关键词，搜索产品、服务、新闻、公告与职位。",
  "search.count": "“{q}”共找到 {n} 条结果",
  "search.none": "没有找到与“{q}”相关的内容，换个关键词试试。",
  "search.facets": "按类别筛选",
  "search.all": "全部",
  "search.type.news": "新闻",
  "search.type.notice": "公告",
  "search.type.product": "产品",
  "search.type.service": "服务",
  "search.type.job": "职位",
  "search.results": "搜索结果",
};
