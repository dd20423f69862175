import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Whether this runs from server/ (tsx) or from dist/server/ (the build). */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export const PROJECT_ROOT = findProjectRoot();
export const DEMO_SITE_FILE = path.join(PROJECT_ROOT, "content/site.json");
export const DEMO_MEDIA_DIR = path.join(PROJECT_ROOT, "content/media");
