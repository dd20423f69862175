/** What the server and its content API thread say to each other (server/content/api-thread.ts). */
import type { ClassifyMenu } from "../../shared/entities.ts";
import type { Config } from "../config.ts";
import type { ContentDialect } from "./db.ts";

export interface ThreadError {
  message: string;
  stack?: string;
}

export interface ThreadData {
  task: "prepare" | "serve";
  databaseUrl: string;
  /** The server's LOG_LEVEL (the serving thread logs each request it answers at info), readable in development. */
  logs?: { level: Config["logLevel"]; readable: boolean };
  /** prepare: what an empty database is loaded with (SEED_CONTENT). */
  seed?: "demo" | "none";
}

/** What preparing found: the demo site loaded, a site already there, or (SEED_CONTENT=none) no site at all. */
export type PreparedContent = "loaded-demo" | "has-site" | "empty";

export type ToThread = { type: "ping"; id: number } | { type: "close" };

export type FromThread =
  | { type: "prepared"; content: PreparedContent }
  | { type: "ready"; url: string; dialect: ContentDialect; classify: ClassifyMenu[] }
  | { type: "pong"; id: number; error?: ThreadError }
  /** The database holds another import than when last looked at (`npm run content -- import` ran). */
  | { type: "content-changed" }
  | { type: "error"; error: ThreadError }
  | { type: "failed"; error: ThreadError };

export function threadErrorOf(error: unknown): ThreadError {
  return error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
}
