// The `url` a signature is asked for: one page of this site, on PUBLIC_ORIGIN, as the browser has it.
import { BASE_PATH } from "../../shared/routes.ts";
import { withoutFragment } from "./js-sdk-signature.ts";

/** Far past any page address of this site; a longer one is not a page. */
export const MAX_PAGE_URL_LENGTH = 2048;

/** The address to sign (without its fragment), or why it is refused. */
export function pageUrlToSign(query: URLSearchParams, publicOrigin: string): { url: string } | { problem: string } {
  const given = query.getAll("url");
  if (given.length !== 1 || !given[0]) return { problem: "url must be given once: the address of a page of this site" };
  const url = withoutFragment(given[0]);
  if (url.length > MAX_PAGE_URL_LENGTH) return { problem: `url must be at most ${MAX_PAGE_URL_LENGTH} characters` };
  const home = `${publicOrigin}${BASE_PATH}`;
  const next = url.charAt(home.length);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {}
  if (!url.startsWith(home) || !["", "/", "?"].includes(next) || parsed?.origin !== publicOrigin || /[\s\\]/.test(url)) {
    return { problem: `url must be a page of this site, under ${home}/` };
  }
  return { url };
}
