/** What the language suites ask the built site for: pages by path, their English address, the public origin they name. */
import { expect } from "vitest";
import type { BuiltSite } from "./built-site.ts";

/** The PUBLIC_ORIGIN the language suites start the site with. */
export const ORIGIN = "https://www.example.com";
export const HAN = /\p{Script=Han}/u;

/** The site's answer to `path`, redirects not followed. */
export const get = (site: BuiltSite, path: string, headers: Record<string, string> = {}) =>
  fetch(site.origin + path, { headers, redirect: "manual" });

/** The page at `path`, after checking it answered 200. */
export async function text(site: BuiltSite, path: string): Promise<string> {
  const res = await get(site, path);
  expect(res.status, path).toBe(200);
  return res.text();
}

/** The English address of a Chinese page. */
export const english = (chinese: string) => chinese.replace(/^\/portal\//, "/portal/en/");
