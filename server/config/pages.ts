/** The pages: the site's public address, the home page's script, the page cache and redirect rules. */

import { z } from "zod";
import { filePath, onOff, origin } from "./value-kinds.ts";

export const pagesEnv = z.object({
  PUBLIC_ORIGIN: origin.optional(),
  PORTAL_HOME_SCRIPT: onOff().default("on"),
  PAGE_CACHE: onOff().default("on"),
  REDIRECTS_FILE: filePath().optional(),
});

export interface PagesConfig {
  publicOrigin?: string;
  homeScript: boolean;
  pageCache: boolean;
  /** docs/redirects.md; undefined: no redirect rules. */
  redirectsFile?: string;
}

export function pagesSettings(e: z.output<typeof pagesEnv>): PagesConfig {
  return {
    publicOrigin: e.PUBLIC_ORIGIN,
    homeScript: e.PORTAL_HOME_SCRIPT === "on",
    pageCache: e.PAGE_CACHE === "on",
    redirectsFile: e.REDIRECTS_FILE,
  };
}
