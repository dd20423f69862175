/**
 * The lease that makes one process of an instance keep its search index
 * (docs/behaviour.md#search, "The index"): one holder at a time, its folder made when
 * missing, and a dead holder's lease taken over.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { takeIndexLease } from "../../server/search/index-lease.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "portal-search-lease-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("is held by one at a time, in a folder made when missing, and free again once released", () => {
  const file = path.join(dir, "not-yet", "search.db");
  const first = takeIndexLease(file);
  expect(first).toBeDefined();
  expect(takeIndexLease(file)).toBeUndefined();
  expect(first?.touch()).toBe(true);
  first?.release();
  expect(existsSync(`${file}.builder`)).toBe(false);
  const second = takeIndexLease(file);
  expect(second).toBeDefined();
  second?.release();
});

it("is taken over from a holder that is gone, and the one it was taken from learns so when it touches it", () => {
  const file = path.join(dir, "search.db");
  // A pid no process has (beyond the kernel's pid_max).
  writeFileSync(`${file}.builder`, "99999999:gone");
  const lease = takeIndexLease(file);
  expect(lease).toBeDefined();
  writeFileSync(`${file}.builder`, "99999999:another");
  expect(lease?.touch()).toBe(false);
});
