/** The header's menu and language switch, hydrated when first used: their strings load with their code. */
export const HEADER_MESSAGES = {
  "shell.nav": "主导航",
  "shell.menu": "菜单",
  "shell.more": "更多",
  "shell.submenu": "展开或收起“{title}”",
  "shell.lang.label": "切换语言：",
};
