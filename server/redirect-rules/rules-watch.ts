// Calls `onChange` soon after the rules file changes: fs.watch on its folder (an editor often replaces the file, which a
// watch on the file itself would lose), and a stat every `pollMs` for the file systems where fs.watch says nothing.
import { type FSWatcher, type Stats, statSync, watch } from "node:fs";
import path from "node:path";

export interface RulesWatch {
  close(): void;
}

const signatureOf = (stats: Stats | undefined) => (stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}` : "absent");

function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** A burst of change events (a copy truncates, then writes, maybe in several steps) is read once, after it settles. */
export const SETTLE_MS = 250;

export function watchRulesFile(file: string, onChange: () => void, pollMs: number, settleMs = SETTLE_MS): RulesWatch {
  let last = signatureOf(statOf(file));
  /** The file as the burst under way last left it. */
  let latest = last;
  let settling: NodeJS.Timeout | undefined;
  const settled = () => {
    settling = undefined;
    if (latest === last) return;
    last = latest;
    onChange();
  };
  const check = () => {
    const now = signatureOf(statOf(file));
    if (now === latest) return;
    latest = now;
    // Each change of the burst starts the wait again.
    clearTimeout(settling);
    settling = setTimeout(settled, settleMs).unref();
  };
  let watcher: FSWatcher | undefined;
  try {
    const name = path.basename(file);
    watcher = watch(path.dirname(file), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === name) check();
    });
    watcher.on("error", () => watcher?.close());
  } catch {
    // The poll alone then.
  }
  const timer = setInterval(check, pollMs).unref();
  return {
    close() {
      clearInterval(timer);
      clearTimeout(settling);
      watcher?.close();
    },
  };
}
