import type { PortalApp } from "../../server/app.ts";

/** Waits until the app's caches have no load under way: a page being stored, a refresh started by a STALE answer. */
export async function settled(app: PortalApp): Promise<void> {
  const caches = [app.portal.cache, app.portal.pageCache].filter((cache) => cache !== undefined);
  while (caches.some((cache) => cache.loading > 0)) await Promise.all(caches.map((cache) => cache.idle()));
}
