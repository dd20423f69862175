/** Words any page may show: the states of a page's data (page names are their route modules' titles). */
export const COMMON_MESSAGES = {
  "state.loading": "加载中…",
  "state.error": "内容暂时无法加载",
  "state.errorTimeout": "加载超时，请稍后再试",
  "state.retry": "重试",
  "state.reload": "重新加载",
  "state.notFound": "没有找到这个页面的内容",
  "title.notFound": "页面未找到",
  "state.backHome": "返回首页",
  "state.empty": "暂无内容",
};
