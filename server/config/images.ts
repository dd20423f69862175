/** The image endpoint: which hosts it fetches from, how large a source may be, its disk cache. */

import { z } from "zod";
import { badPart, integer, onOff, origin } from "./value-kinds.ts";

const origins = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    const out: string[] = [];
    for (const part of raw.split(",").filter((p) => p.trim() !== "")) {
      const parsed = origin.safeParse(part);
      if (!parsed.success) {
        ctx.addIssue({
          code: "custom",
          message: `must be http(s) origins joined by commas, such as https://img.example.com${badPart(raw, part)}`,
        });
        return z.NEVER;
      }
      out.push(parsed.data);
    }
    return out;
  });

export const imagesEnv = z.object({
  IMAGE_HOSTS: origins.default([]),
  IMAGE_MAX_MB: integer(1, 1024, "a whole number of megabytes from 1 to 1024").default(20),
  IMAGE_CACHE_DIR: z.string().trim().min(1, "must be a folder path").default("./data/images"),
  IMAGE_CACHE_MB: integer(1, 1_048_576, "a whole number of megabytes from 1 to 1048576").default(512),
  IMAGE_ALLOW_SVG: onOff().default("off"),
});

export interface ImagesConfig {
  /** Beside the upstream's own. */
  hosts: string[];
  maxSourceBytes: number;
  cacheDir: string;
  cacheMaxBytes: number;
  /** The embedded media's SVGs always are. */
  allowSvg: boolean;
}

export function imagesSettings(e: z.output<typeof imagesEnv>): ImagesConfig {
  return {
    hosts: e.IMAGE_HOSTS,
    maxSourceBytes: e.IMAGE_MAX_MB * 1024 * 1024,
    cacheDir: e.IMAGE_CACHE_DIR,
    cacheMaxBytes: e.IMAGE_CACHE_MB * 1024 * 1024,
    allowSvg: e.IMAGE_ALLOW_SVG === "on",
  };
}
