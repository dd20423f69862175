/** `npm run content -- preview-link PATH [--hours N]`: a link an editor opens to see PATH as it will be (docs/behaviour.md#preview). */
import type { Config } from "../config.ts";
import { previewLinkOf, sitePathOf } from "./preview-link.ts";

const DEFAULT_HOURS = 24;
const MAX_HOURS = 24 * 30;

type CommandOutcome = { ok: true; link: string; note?: string } | { ok: false; usage: boolean; error: string };

export function previewLinkCommand(
  config: Pick<Config, "preview" | "publicOrigin">,
  args: readonly string[],
  nowMs: number,
): CommandOutcome {
  const [path, flag, value, ...rest] = args;
  if (path === undefined || rest.length > 0 || (flag !== undefined && (flag !== "--hours" || value === undefined))) {
    return { ok: false, usage: true, error: "" };
  }
  const hours = value === undefined ? DEFAULT_HOURS : Number(value);
  if (!/^\d+$/.test(value ?? "1") || hours < 1 || hours > MAX_HOURS) {
    return { ok: false, usage: false, error: `--hours must be a whole number from 1 to ${MAX_HOURS}` };
  }
  const sitePath = sitePathOf(path);
  if (sitePath === undefined)
    return { ok: false, usage: false, error: `${path.slice(0, 200)} is not a page of this site: give a path under /portal` };
  const [secret] = config.preview.secrets;
  if (!secret) return { ok: false, usage: false, error: "PREVIEW_SECRET is not set: the server would refuse every preview link" };
  const link = previewLinkOf(sitePath, Math.floor(nowMs / 1000) + hours * 3600, secret);
  if (config.publicOrigin) return { ok: true, link: `${config.publicOrigin}${link}` };
  return { ok: true, link, note: "PUBLIC_ORIGIN is not set: put the site's origin in front of this path" };
}
