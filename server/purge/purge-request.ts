/** The body of a purge, bounded so no purge is larger than a small request (docs/behaviour.md#purging, "Body"). */
import { z } from "zod";
import type { PurgeMode } from "../cache/swr-cache.ts";
import { MAX_ID_LENGTH } from "./purge-auth.ts";

const MAX_PURGE_TAGS = 256;
const MAX_PURGE_PATHS = 64;
const MAX_TAG_LENGTH = 128;
const MAX_PATH_LENGTH = 1024;

export interface PurgeRequest {
  tags: string[];
  paths: string[];
  all: boolean;
  mode: PurgeMode;
  /** The webhook id: every process remembers it, so a replay is refused wherever it lands. */
  id?: string;
}

const tag = z
  .string("must be a string")
  .min(1, "must not be empty")
  .max(MAX_TAG_LENGTH, `must be at most ${MAX_TAG_LENGTH} characters`)
  // Tags travel in headers, comma- and space-separated.
  .regex(/^[\x21-\x2b\x2d-\x7e]+$/, "must be printable ASCII without spaces or commas");

const path = z
  .string("must be a string")
  .max(MAX_PATH_LENGTH, `must be at most ${MAX_PATH_LENGTH} characters`)
  .regex(/^\/(api\/)?portal\/[^\s#]*$/, "must be a path under /portal/ or /api/portal/ (a query may follow, no fragment)");

const body = z
  .strictObject(
    {
      tags: z.array(tag, "must be a list of strings").max(MAX_PURGE_TAGS, `must hold at most ${MAX_PURGE_TAGS} tags`).optional(),
      paths: z.array(path, "must be a list of strings").max(MAX_PURGE_PATHS, `must hold at most ${MAX_PURGE_PATHS} paths`).optional(),
      all: z.literal(true, "must be true when given").optional(),
      mode: z.enum(["soft", "hard"], 'must be "soft" or "hard"').optional(),
    },
    "must be a JSON object",
  )
  .superRefine((value, ctx) => {
    const named = (value.tags?.length ?? 0) + (value.paths?.length ?? 0);
    if (value.all && named > 0) ctx.addIssue({ code: "custom", message: 'give either "all": true or tags and paths, not both' });
    if (!value.all && named === 0) ctx.addIssue({ code: "custom", message: 'name tags or paths to purge, or give "all": true' });
  });

export const isPurgeTag = (value: unknown): value is string => tag.safeParse(value).success;
export const isPurgePath = (value: unknown): value is string => path.safeParse(value).success;

const id = z.string().min(1).max(MAX_ID_LENGTH);

/** Another instance's purge, held to a body's rules: whoever can write to Redis can publish. */
export function checkedPurgeRequest(value: unknown): PurgeRequest | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const { tags, paths, all, mode, id: given } = value as Record<string, unknown>;
  const parsed = body.safeParse({ tags, paths, mode, ...(all === true ? { all } : {}) });
  if (!parsed.success || (given !== undefined && !id.safeParse(given).success)) return undefined;
  const request: PurgeRequest = {
    tags: parsed.data.tags ?? [],
    paths: parsed.data.paths ?? [],
    all: all === true,
    mode: parsed.data.mode ?? "soft",
  };
  return typeof given === "string" ? { ...request, id: given } : request;
}

type ParsedPurge = { ok: true; request: PurgeRequest } | { ok: false; error: string };

export function parsePurgeBody(raw: Buffer): ParsedPurge {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch {
    return { ok: false, error: "body is not valid JSON" };
  }
  const parsed = body.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "body";
    const message = issue?.code === "unrecognized_keys" ? `has unknown field(s) ${issue.keys.join(", ")}` : issue?.message;
    return { ok: false, error: `${where} ${message ?? "is invalid"}` };
  }
  const { tags = [], paths = [], all = false, mode = "soft" } = parsed.data;
  return { ok: true, request: { tags: [...new Set(tags)], paths: [...new Set(paths)], all, mode } };
}
