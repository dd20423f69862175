/**
 * Which process of an instance keeps its search index: the one holding the lease file
 * beside it (`search.db.builder`, its pid and a token). The others only read the index and
 * follow it when a build replaces it (docs/behaviour.md#search, "The index").
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The holder touches its lease this often; one untouched for STALE_MS is taken over, whatever its pid (pids are reused). */
export const LEASE_TOUCH_MS = 10_000;
const STALE_MS = 6 * LEASE_TOUCH_MS;

/** Leases held in this process: its pid alone cannot tell two holders in one process apart. */
const heldHere = new Set<string>();

export function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

const holderLives = (token: string) => {
  const pid = Number(token.split(":")[0]);
  return pid === process.pid ? heldHere.has(token) : isAlive(pid);
};

export interface IndexLease {
  /** Says the holder still lives; false once another process has taken the lease over. */
  touch(): boolean;
  release(): void;
}

/** The lease when no living process holds it (a dead holder's is taken over), else undefined. */
export function takeIndexLease(indexFile: string): IndexLease | undefined {
  const file = `${indexFile}.builder`;
  const token = `${process.pid}:${randomUUID()}`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch {
    return undefined;
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, token, { flag: "wx" });
      heldHere.add(token);
      const owned = () => {
        try {
          return readFileSync(file, "utf8") === token;
        } catch {
          return false;
        }
      };
      return {
        touch() {
          if (!owned()) return false;
          const now = new Date();
          utimesSync(file, now, now);
          return true;
        },
        release() {
          heldHere.delete(token);
          try {
            if (readFileSync(file, "utf8") === token) rmSync(file, { force: true });
          } catch {}
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
      let holder = "";
      let touchedAt = 0;
      try {
        holder = readFileSync(file, "utf8");
        touchedAt = statSync(file).mtimeMs;
      } catch {}
      if (holderLives(holder) && Date.now() - touchedAt < STALE_MS) return undefined;
      rmSync(file, { force: true });
    }
  }
  return undefined;
}
