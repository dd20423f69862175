import { buildSite } from "./support/build-site.ts";

/** Vitest global setup: the browser suites need the built site. */
export default async function setup(): Promise<void> {
  await buildSite();
}
