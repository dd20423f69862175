import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Database suites share one PostgreSQL; files run in parallel, each on its own schema or data.
    pool: "forks",
    // The browser suites run against the built site; it is built once per run.
    globalSetup: ["tests/browser/global-setup.ts"],
  },
});
