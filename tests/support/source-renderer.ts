/**
 * The page renderer for tests: the server renderer imported straight from source and
 * the unbuilt index.html, with no Vite server and no build.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { render } from "../../client/entry-server.tsx";
import type { PageRenderer } from "../../server/render/page-renderer.ts";
import { splitTemplate } from "../../server/render/page-template.ts";

export async function createSourceRenderer(): Promise<PageRenderer> {
  const template = splitTemplate(await readFile(path.resolve(import.meta.dirname, "../../index.html"), "utf8"));
  return { render, template: async () => template };
}
