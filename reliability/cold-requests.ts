/** The faults section's cold requests: keys nobody asked for before, and the one upstream request each needs. */
import type { RequestSpec } from "./traffic.ts";

/** A never-requested key: list pages and API list pages far past the content, each once. */
export function coldSpec(n: number): RequestSpec {
  const index = 1000 + n;
  if (n % 2 === 0) {
    const kind = n % 4 === 0 ? "news" : "notice";
    return { path: `/portal/message/${kind}/list.html?page=${(index % 100_000) + 2}&size=${n % 8 < 4 ? 20 : 50}`, kind: "cold-page" };
  }
  return {
    path: `/api/portal/message/news/list?pageIndex=${index % 100_000}&pageMaxCount=${1 + (Math.floor(index / 100_000) % 100)}`,
    kind: "cold-api",
  };
}

/** The upstream request a cold request needs (the one key of it not cached), as the upstream sees it. */
export function upstreamKeyOf(path: string): string {
  const page = /^\/portal\/message\/(news|notice)\/list\.html\?page=(\d+)&size=(\d+)$/.exec(path);
  if (page) return `/api/portal/message/${page[1]}/list?pageIndex=${Number(page[2]) - 1}&pageMaxCount=${page[3]}`;
  return path;
}
