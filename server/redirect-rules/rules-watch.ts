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

export function watchRulesFile(file: string, onChange: () => void, pollMs: number): RulesWatch {
  let last = signatureOf(statOf(file));
  const check = () => {
    const now = signatureOf(statOf(file));
    if (now === last) return;
    last = now;
    onChange();
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
      watcher?.close();
    },
  };
}
