/** What every section gets from the runner. */
import path from "node:path";
import type { SiteFile } from "../server/content/site-file.ts";

export interface RunContext {
  /** The CI form: shorter load, fewer fuzz cases, shorter fault phases. */
  short: boolean;
  /** Temporary files of this run (databases); removed at the end. */
  workDir: string;
  /** Server logs; kept when something failed. */
  logDir: string;
  /** taskset CPU lists, when the machine has two CPUs or more. */
  serverCpus?: string;
  loadCpus?: string;
  /** The demo site (content/site.json), parsed. */
  site: SiteFile;
  /** Progress, to stderr. */
  log(line: string): void;
}

export const logFileOf = (ctx: RunContext, name: string) => path.join(ctx.logDir, `${name}.log`);

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export const round = (value: number, digits = 0) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}
