/** Where content comes from: the upstream (or the embedded API and its database), its menus, the search index. */

import path from "node:path";
import { z } from "zod";
import type { ClassifyMenu } from "../../shared/entities.ts";
import { baseUrl, filePath, integer, ms } from "./value-kinds.ts";

const classifyEntry = z.strictObject({
  menuId: z.number().int().min(1),
  api: z.string().regex(/^\/api\/portal\/[A-Za-z0-9/_.-]+$/),
  path: z.string().regex(/^\/[A-Za-z0-9/_.-]*$/),
});

const classify = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    try {
      return z.array(classifyEntry).parse(JSON.parse(raw)) as ClassifyMenu[];
    } catch {
      ctx.addIssue({ code: "custom", message: 'must be a JSON list of {"menuId":1,"api":"/api/portal/...","path":"/product"}' });
      return z.NEVER;
    }
  });

const databaseUrl = z
  .string()
  .trim()
  .refine((v) => /^sqlite:.+/.test(v) || /^postgres(ql)?:\/\/.+/.test(v), "must be sqlite:PATH or postgres://...");

export const contentEnv = z.object({
  API_BASE_URL: baseUrl.optional(),
  DATABASE_URL: databaseUrl.default("sqlite:./data/portal.db"),
  UPSTREAM_TIMEOUT_MS: integer(1, 600_000, "a whole number of milliseconds from 1 to 600000").default(5000),
  PORTAL_CLASSIFY: classify.optional(),
  SEED_CONTENT: z.enum(["demo", "none"], "must be demo or none").default("demo"),
  SEARCH_REFRESH_MS: ms().default(600_000),
  SEARCH_INDEX_PATH: filePath().optional(),
  SEARCH_CACHE_MB: integer(1, 1024, "a whole number of megabytes from 1 to 1024").default(2),
});

export interface ContentConfig {
  /** Undefined starts the embedded content API. */
  apiBaseUrl?: string;
  databaseUrl: string;
  upstreamTimeoutMs: number;
  /** Undefined: the embedded demo's own, or none for an external upstream. */
  classify?: ClassifyMenu[];
  seedContent: "demo" | "none";
  /** `refreshMs` 0: never read again. `cacheKb`: SQLite's page cache of each index file the search thread holds open. */
  search: { indexPath: string; refreshMs: number; cacheKb: number };
}

export function contentSettings(e: z.output<typeof contentEnv>): ContentConfig {
  return {
    apiBaseUrl: e.API_BASE_URL,
    databaseUrl: e.DATABASE_URL,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    classify: e.PORTAL_CLASSIFY,
    seedContent: e.SEED_CONTENT,
    search: {
      indexPath: e.SEARCH_INDEX_PATH ?? searchIndexBeside(e.DATABASE_URL),
      refreshMs: e.SEARCH_REFRESH_MS,
      cacheKb: e.SEARCH_CACHE_MB * 1024,
    },
  };
}

function searchIndexBeside(databaseUrl: string): string {
  const sqlite = /^sqlite:(.+)$/.exec(databaseUrl)?.[1];
  return path.join(sqlite && sqlite !== ":memory:" ? path.dirname(sqlite) : "./data", "search.db");
}
