import { defineConfig } from "vitest/config";

/**
 * Three projects, so a run pays only for what it runs: `unit` (pure functions, no
 * sockets), `integration` (real HTTP servers, SQLite files, PostgreSQL when
 * TEST_DATABASE_URL is set, hostile input on real sockets, rendered pages from the built
 * site) and `browser` (the built site in Chromium). The last two start the production build
 * as `npm start` does: their global setup builds dist/ first when it is not current.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Database suites share one PostgreSQL; files run in parallel, each on its own schema or data.
    pool: "forks",
    // An undeclared console.error fails its test; an unhandled rejection or exception fails the run.
    setupFiles: ["tests/support/fail-on-console-error.ts"],
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/built-site-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["tests/browser/**/*.test.ts"],
          globalSetup: ["tests/support/built-site-setup.ts"],
          // A page in Chromium waits on the built site's first image resizes; on a loaded machine that takes a while.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
