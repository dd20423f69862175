import { ensureBuilt } from "./built-site.ts";

/** Vitest global setup: the suites that start the site run it as production does, from a current build in dist/. */
export default async function setup(): Promise<void> {
  await ensureBuilt();
}
