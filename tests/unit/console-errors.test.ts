import { describe, expect, it } from "vitest";
import { ConsoleErrorWatch } from "../support/console-errors.ts";

describe("the console.error watch every test runs under", () => {
  it("names an undeclared console.error, formatted as the console would print it", () => {
    const watch = new ConsoleErrorWatch();
    expect(watch.record(["upstream %s failed with %d", "cms", 502])).toBe(false);
    expect(watch.settle()).toEqual(["unexpected console.error: upstream cms failed with 502"]);
  });

  it("lets a declared error through, and only the one declared", () => {
    const watch = new ConsoleErrorWatch();
    watch.expect(/render error/);
    expect(watch.record(["render error:", new Error("boom")])).toBe(true);
    expect(watch.record(["hydration:", "mismatch"])).toBe(false);
    expect(watch.settle()).toEqual(["unexpected console.error: hydration: mismatch"]);
  });

  it("fails a declaration that no error answered", () => {
    const watch = new ConsoleErrorWatch();
    watch.expect(/render error/);
    expect(watch.settle()).toEqual(["expected a console.error matching /render error/, none came"]);
  });

  it("starts each window afresh: a declaration does not outlive its test", () => {
    const watch = new ConsoleErrorWatch();
    watch.expect(/render error/);
    watch.record(["render error: once"]);
    expect(watch.settle()).toEqual([]);
    expect(watch.record(["render error: again"])).toBe(false);
    expect(watch.settle()).toEqual(["unexpected console.error: render error: again"]);
  });
});
