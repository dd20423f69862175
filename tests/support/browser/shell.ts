/** The header's tools, as the shell's browser suites wait for them: left as the server sent them until a visitor uses them. */
import type { Page } from "playwright-core";

/** The visitor points at the language switch: the header's tools (menu and switch), left as the server sent them until used, take over. */
export async function useHeaderTools(page: Page): Promise<void> {
  await page.hover(".lang-switch");
  await page.waitForSelector("nav.site-nav[data-mode]");
}
