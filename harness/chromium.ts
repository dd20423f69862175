/**
 * Debian's Chromium (CHROMIUM_PATH overrides it) and the flags every launch uses: no
 * sandbox (CI runs as root), no GPU, and nothing in the background that would reach the
 * network or take CPU from a measurement. Every launch starts on a fresh profile:
 * Playwright makes one per launch, and a caller starting Chromium itself passes its own
 * empty --user-data-dir.
 */
import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

export interface ChromiumProcess {
  child: ChildProcess;
  /** Ends Chromium and removes its profile. */
  close(): Promise<void>;
}

/** Chromium started directly (headless, the flags above, a fresh profile) for a caller that speaks to it itself. */
export async function spawnChromium(args: string[], stdio: StdioOptions): Promise<ChromiumProcess> {
  const profile = await mkdtemp(path.join(tmpdir(), "portal-chromium-"));
  // Debian's chromium is a wrapper script: its own process group, so closing ends all of it.
  const child = spawn(CHROMIUM_PATH, ["--headless", ...CHROMIUM_FLAGS, ...args, `--user-data-dir=${profile}`, "about:blank"], {
    stdio,
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    async close() {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGTERM");
      await exited;
      await rm(profile, { recursive: true, force: true });
    },
  };
}
