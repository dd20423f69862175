/**
 * Debian's Chromium (CHROMIUM_PATH overrides it) and the flags every launch uses: no
 * sandbox (CI runs as root), no GPU, and nothing in the background that would reach the
 * network or take CPU from a measurement. Every launch starts on a fresh profile:
 * Playwright makes one per launch, and a caller starting Chromium itself passes its own
 * empty --user-data-dir.
 */
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
