/** What the server and its content API thread say to each other (server/content/api-thread.ts). */
import type { ClassifyMenu } from "../../shared/entities.ts";
import type { Config } from "../config.ts";
import type { ContentDialect } from "./db.ts";

interface ThreadError {
  message: string;
  stack?: string;
}

export interface ThreadData {
  task: "prepare" | "serve";
  databaseUrl: string;
  logs?: { level: Config["logLevel"]; readable: boolean };
  seed?: "demo" | "none";
  /** PREVIEW_PARAM: the query parameter that shows drafts. */
  previewParam?: string;
}

export type PreparedContent = "loaded-demo" | "has-site" | "empty";

export type ToThread = { type: "ping"; id: number } | { type: "close" };

export type FromThread =
  | { type: "prepared"; content: PreparedContent }
  | { type: "ready"; url: string; dialect: ContentDialect; classify: ClassifyMenu[] }
  | { type: "pong"; id: number; error?: ThreadError }
  /** An import landed, or a scheduled item became due. */
  | { type: "content-changed"; cause: "import" | "schedule" }
  | { type: "error"; error: ThreadError }
  | { type: "failed"; error: ThreadError };

export function threadErrorOf(error: unknown): ThreadError {
  return error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
}
