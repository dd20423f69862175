/** Development: Vite middleware serves the client with hot reload and loads the server renderer from source per request. */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { RenderInput, RenderResult } from "../../shared/page-state.ts";
import { PROJECT_ROOT } from "../project-root.ts";
import type { PageRenderer } from "./page-renderer.ts";
import { splitTemplate } from "./page-template.ts";

export async function createDevRenderer(): Promise<PageRenderer> {
  const { createServer } = await import("vite");
  const vite = await createServer({ root: PROJECT_ROOT, server: { middlewareMode: true }, appType: "custom", base: "/portal/" });
  return {
    async render(input) {
      const entry = (await vite.ssrLoadModule("/client/entry-server.tsx")) as { render(input: RenderInput): Promise<RenderResult> };
      try {
        return await entry.render(input);
      } catch (err) {
        if (err instanceof Error) vite.ssrFixStacktrace(err);
        throw err;
      }
    },
    async template(url) {
      const raw = await readFile(path.join(PROJECT_ROOT, "index.html"), "utf8");
      return splitTemplate(await vite.transformIndexHtml(url, raw));
    },
    assets: {
      path: "/",
      // Vite strips its base from req.url as it goes: what it does not serve continues intact.
      handler: (req, res, next) => {
        const url = req.url;
        vite.middlewares(req, res, () => {
          req.url = url;
          next();
        });
      },
    },
    close: () => vite.close(),
  };
}
