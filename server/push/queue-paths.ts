/** Site paths into the queue, for the engines configured (docs/behaviour.md#telling-search-engines, "What is sent"). */
import type { PushConfig } from "../config.ts";
import type { PushEngine, PushStore } from "./push-store.ts";

export const enginesOf = (config: PushConfig): PushEngine[] => [
  ...(config.indexNow ? (["indexnow"] as const) : []),
  ...(config.baidu ? (["baidu"] as const) : []),
];

/** `gone` addresses go to IndexNow alone; `unlessSentSince` undefined: queued again whenever it was last sent. */
export async function queuePaths(
  store: PushStore,
  config: PushConfig,
  paths: readonly string[],
  options: { now: number; gone?: boolean; unlessSentSince?: number },
): Promise<number> {
  const engines = enginesOf(config).filter((engine) => !options.gone || engine === "indexnow");
  if (engines.length === 0 || paths.length === 0) return 0;
  const dueAt = options.now + config.gatherMs;
  return store.queue(engines, [...new Set(paths)], options.now, { dueAt, unlessSentSince: options.unlessSentSince ?? options.now + 1 });
}
