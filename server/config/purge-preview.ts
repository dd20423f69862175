/** The purge endpoint's secrets and preview links' (docs/behaviour.md#preview). */

import { z } from "zod";
import { type PurgeSecret, purgeSecrets } from "./secrets.ts";
import { queryParamName } from "./value-kinds.ts";

export const purgePreviewEnv = z.object({
  PURGE_SECRET: purgeSecrets.optional(),
  PREVIEW_SECRET: purgeSecrets.optional(),
  PREVIEW_PARAM: queryParamName().default("preview"),
});

export interface PurgePreviewConfig {
  /** Empty: no purge endpoint. */
  purgeSecrets: PurgeSecret[];
  /** `secrets` empty: no preview links. `param`: what the upstream reads as "show drafts". */
  preview: { secrets: PurgeSecret[]; param: string };
}

export function purgePreviewSettings(e: z.output<typeof purgePreviewEnv>): PurgePreviewConfig {
  return {
    purgeSecrets: e.PURGE_SECRET ?? [],
    preview: { secrets: e.PREVIEW_SECRET ?? [], param: e.PREVIEW_PARAM },
  };
}
