import type { RequestHandler } from "express";
import type { RenderInput, RenderResult } from "../../shared/page-state.ts";
import type { PageTemplate } from "./page-template.ts";

/** How pages become HTML: development (Vite) and production (the build) differ only here. */
export interface PageRenderer {
  render(input: RenderInput): Promise<RenderResult>;
  template(url: string): Promise<PageTemplate>;
  assets?: { path: string; handler: RequestHandler };
  close?(): Promise<void>;
}
