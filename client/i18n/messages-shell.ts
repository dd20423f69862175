/** The frame of every page: header, back-to-top, the error fallback (the menu, language switch and footer have their own). */
export const SHELL_MESSAGES = {
  "shell.skip": "跳到主要内容",
  "shell.home": "返回首页",
  "shell.newWindow": "（在新窗口打开）",
  // Shown on English pages only; the Chinese is its key's reference text.
  "shell.lang.chineseOnly": "本页内容仅有中文版本。",
  // Beside an untranslated item in a list on a page in another language.
  "shell.lang.untranslated": "中文",
  "shell.loading": "正在加载页面",
  "shell.backToTop": "返回顶部",
  "shell.error": "页面出现了问题",
  "shell.errorHint": "请重试；如果问题依旧，请重新加载页面。",
  "shell.preview.label": "预览",
  "shell.preview.text": "这是预览：草稿和定时发布的内容只有您能看到。",
  "shell.preview.exit": "退出预览",
};
