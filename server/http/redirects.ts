/**
 * Redirects (docs/behaviour.md#redirects): `/`, `/portal`, `/portal/` and any path nothing else
 * answered go to /portal/index.html with the original query string. The target is a
 * fixed local path, so no request can steer it to another host.
 */
import type { RequestHandler } from "express";
import { BASE_PATH, HOME_PATH } from "../../shared/routes.ts";

const HOME = BASE_PATH + HOME_PATH;

export function homeLocation(originalUrl: string): string {
  const q = originalUrl.indexOf("?");
  return q === -1 ? HOME : HOME + originalUrl.slice(q);
}

export const redirectHome: RequestHandler = (req, res) => {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.status(405).set({ Allow: "GET, HEAD", "Cache-Control": "no-store" }).type("text/plain").send("405 method not allowed\n");
    return;
  }
  res.set("Cache-Control", "no-store").redirect(302, homeLocation(req.originalUrl));
};
