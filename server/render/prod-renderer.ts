/** Production: the built template and server bundle, loaded once; Vite is never loaded. */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import express from "express";
import type { RenderInput, RenderResult } from "../../shared/page-state.ts";
import { BASE_PATH } from "../../shared/routes.ts";
import { PROJECT_ROOT } from "../project-root.ts";
import { type BuildManifest, modulePreloader } from "./module-preload.ts";
import type { PageRenderer } from "./page-renderer.ts";
import { splitTemplate } from "./page-template.ts";

export async function createProdRenderer(distDir = path.join(PROJECT_ROOT, "dist")): Promise<PageRenderer> {
  const html = await readFile(path.join(distDir, "client/index.html"), "utf8");
  const template = splitTemplate(html);
  const manifest = JSON.parse(await readFile(path.join(distDir, "client/.vite/manifest.json"), "utf8")) as BuildManifest;
  const preloads = modulePreloader(manifest, `${BASE_PATH}/`);
  const entry = (await import(pathToFileURL(path.join(distDir, "ssr/entry-server.js")).href)) as {
    render(input: RenderInput): Promise<RenderResult>;
  };
  // Content-hashed names: immutable.
  const assets = express.static(path.join(distDir, "client/assets"), {
    immutable: true,
    maxAge: "365d",
    index: false,
    redirect: false,
    fallthrough: false,
  });
  return {
    render: async (input) => {
      const result = await entry.render(input);
      return { ...result, head: result.head + preloads(result.modules) };
    },
    template: async () => template,
    assets: { path: "/portal/assets", handler: assets },
  };
}
