/** Every child process a run started that is still running, so an early exit can end them. */
import type { ChildProcess } from "node:child_process";

export const liveChildren = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  liveChildren.add(child);
  child.once("exit", () => liveChildren.delete(child));
  return child;
}
