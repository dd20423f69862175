import type { RequestHandler } from "express";
import type { RenderInput, RenderResult } from "../../shared/page-state.ts";
import type { PageTemplate } from "./page-template.ts";

/**
 * How pages are turned into HTML. Development (Vite middleware) and production (the
 * built bundles) differ only here; createApp takes whichever it is given.
 */
export interface PageRenderer {
  render(input: RenderInput): Promise<RenderResult>;
  template(url: string): Promise<PageTemplate>;
  /** Serves the client's scripts and styles, mounted at `path`. */
  assets?: { path: string; handler: RequestHandler };
  close?(): Promise<void>;
}
