/** The frame of every page: header, menu, back-to-top, the error fallback (the footer's are its own). */
export const SHELL_MESSAGES = {
  "shell.skip": "跳到主要内容",
  "shell.home": "返回首页",
  "shell.nav": "主导航",
  "shell.menu": "菜单",
  "shell.submenu": "展开或收起“{title}”",
  "shell.newWindow": "（在新窗口打开）",
  "shell.lang.label": "切换语言：",
  "shell.lang.other": "English",
  // Shown on English pages only; the Chinese is its key's reference text.
  "shell.lang.chineseOnly": "本页内容仅有中文版本。",
  "shell.loading": "正在加载页面",
  "shell.backToTop": "返回顶部",
  "shell.error": "页面出现了问题",
  "shell.errorHint": "请重试；如果问题依旧，请重新加载页面。",
};
