/**
 * The rules file read again after a change: a copy that truncates the file and then writes it in steps is read
 * once, whole, not half-written (docs/redirects.md#the-rules-file).
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { watchRulesFile } from "../../server/redirect-rules/rules-watch.ts";

const dir = mkdtempSync(path.join(tmpdir(), "rules-watch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("reading the rules file again", () => {
  it("reads a burst of writes once, after the last of them", async () => {
    const file = path.join(dir, "rules.csv");
    writeFileSync(file, "from,to,status\n/old,/portal/index.html,\n");
    const seen: string[] = [];
    let changed: () => void = () => {};
    const read = new Promise<void>((resolve) => {
      changed = resolve;
    });
    // A settling time far longer than the burst takes, so a busy machine still writes it within one.
    const watch = watchRulesFile(
      file,
      () => {
        seen.push(readFileSync(file, "utf8"));
        changed();
      },
      50,
      2000,
    );
    try {
      writeFileSync(file, "");
      for (let i = 0; i < 20; i++) {
        await nextTurn();
        appendFileSync(file, i === 0 ? "from,to,status\n" : `/old${i},/portal/index.html,\n`);
      }
      await read;
      expect(seen).toHaveLength(1);
      expect(seen[0]?.split("\n").filter(Boolean)).toHaveLength(20);
    } finally {
      watch.close();
    }
  });
});
