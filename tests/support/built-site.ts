/**
 * The site as it ships: the production build in dist/, started as `npm start` starts it,
 * in a process of its own. Pages rendered there cross from the server's modules into the
 * SSR bundle as they do in production, which a render from source in the test's process
 * never does.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PROJECT_DIR, type ServerProcess, startServerProcess } from "./server-process.ts";

const LOCK = path.join(PROJECT_DIR, ".tmp", "build.lock");

const isCurrent = () => spawnSync("node", ["scripts/build-stamp.mjs", "current"], { cwd: PROJECT_DIR, stdio: "ignore" }).status === 0;

/**
 * Builds dist/ unless it is the build of the sources in the tree. Test projects that start
 * together share one build: the first takes the lock and builds, the others wait for it.
 */
export async function ensureBuilt(): Promise<void> {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  while (!isCurrent()) {
    try {
      mkdirSync(LOCK);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      // As an operator's shell runs it: Vitest's NODE_ENV=test would make a development build of React.
      const { NODE_ENV: _, ...env } = process.env;
      const build = spawnSync("npm", ["run", "build"], { cwd: PROJECT_DIR, env, stdio: ["ignore", "ignore", "inherit"] });
      if (build.status !== 0) throw new Error("npm run build failed");
    } finally {
      rmdirSync(LOCK);
    }
  }
}

export interface BuiltSite extends ServerProcess {
  close(): Promise<void>;
}

/**
 * The built server with `env` on 127.0.0.1, its data (SQLite file, image cache) in a
 * folder of its own (the search index too): the embedded demo site unless `env` names an upstream.
 */
export async function startBuiltSite(env: Record<string, string> = {}): Promise<BuiltSite> {
  const dir = await mkdtemp(path.join(tmpdir(), "portal-site-"));
  const site = await startServerProcess(
    {
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      IMAGE_CACHE_DIR: path.join(dir, "images"),
      // A stand-in upstream counts what it is asked: the search index reads it only when a test says so.
      ...(env.API_BASE_URL ? { SEARCH_REFRESH_MS: "0" } : {}),
      ...env,
    },
    { built: true },
  );
  return {
    ...site,
    async close() {
      await site.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `use` against a site of its own, started with `env`, and stops the site afterwards. */
export async function withBuiltSite<T>(env: Record<string, string>, use: (site: BuiltSite) => Promise<T>): Promise<T> {
  const site = await startBuiltSite(env);
  try {
    return await use(site);
  } finally {
    await site.close();
  }
}
