/**
 * Every test fails on a console.error it did not declare (tests/support/fail-on-console-error.ts wires
 * this into each project). A test that means to provoke one says so first: `expectConsoleError(/pattern/)`.
 */
import { format } from "node:util";

interface Expectation {
  pattern: RegExp;
  matched: number;
}

/** The console.error calls seen in one window (one test, or the hooks around a file's tests) and what was declared. */
export class ConsoleErrorWatch {
  private readonly seen: string[] = [];
  private readonly expected: Expectation[] = [];

  /** Records one call; returns whether a declared expectation accounts for it. */
  record(args: unknown[]): boolean {
    const message = format(...args);
    const expectation = this.expected.find((e) => e.pattern.test(message));
    if (expectation) {
      expectation.matched++;
      return true;
    }
    this.seen.push(message);
    return false;
  }

  expect(pattern: RegExp): void {
    this.expected.push({ pattern, matched: 0 });
  }

  /** What is wrong with the window, in words, and a fresh start for the next one. */
  settle(): string[] {
    const problems = [
      ...this.seen.map((message) => `unexpected console.error: ${message}`),
      ...this.expected.filter((e) => e.matched === 0).map((e) => `expected a console.error matching ${e.pattern}, none came`),
    ];
    this.seen.length = 0;
    this.expected.length = 0;
    return problems;
  }
}

export const consoleErrors = new ConsoleErrorWatch();

/** Declares, inside a test, that a console.error matching `pattern` is part of what it checks; the test fails if none comes. */
export function expectConsoleError(pattern: RegExp): void {
  consoleErrors.expect(pattern);
}
