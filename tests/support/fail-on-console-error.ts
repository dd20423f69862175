/**
 * Setup file of every project: a console.error the test did not declare fails it (see console-errors.ts), and
 * nothing may install its own unhandledRejection/uncaughtException listener, which would stop Vitest failing the run.
 */
import { afterAll, afterEach, beforeEach } from "vitest";
import { consoleErrors } from "./console-errors.ts";

const original = console.error;
console.error = (...args: unknown[]) => {
  if (!consoleErrors.record(args)) original.apply(console, args);
};

const PROCESS_EVENTS = ["unhandledRejection", "uncaughtException"] as const;
const listenersAtStart = new Map(PROCESS_EVENTS.map((event) => [event, process.listenerCount(event)]));

function check(when: string): void {
  const problems = consoleErrors.settle();
  for (const event of PROCESS_EVENTS) {
    const added = process.listenerCount(event) - (listenersAtStart.get(event) ?? 0);
    if (added > 0) problems.push(`${added} ${event} listener(s) installed: they would hide an unhandled error from the run`);
  }
  if (problems.length > 0) throw new Error(`${when}:\n${problems.join("\n")}`);
}

beforeEach(() => check("outside a test (a beforeAll/afterAll hook, or after an earlier test ended)"));
afterEach(() => check("during this test"));
afterAll(() => check("after the last test (an afterAll hook)"));
