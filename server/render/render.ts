// The page renderer a process serves with: Vite's, transforming on each request, in development; the built one otherwise.
import { createDevRenderer } from "./dev-renderer.ts";
import type { PageRenderer } from "./page-renderer.ts";
import { createProdRenderer } from "./prod-renderer.ts";

export type { PageRenderer };

export function createRenderer(dev: boolean): Promise<PageRenderer> {
  return dev ? createDevRenderer() : createProdRenderer();
}
