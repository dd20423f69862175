import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import react from "@vitejs/plugin-react";
import { createLogger, defineConfig, type Logger, type Plugin } from "vite";

/** React DOM, which the entry imports lazily so that it sets itself up in a later task, but from the same file. */
const REACT_DOM = /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/;

/** Every module the entry imports statically, found once the module graph is built. */
const startModules = new Set<string>();
const findStartModules: Plugin = {
  name: "find-start-modules",
  apply: "build",
  buildStart: () => startModules.clear(),
  buildEnd() {
    const visit = (id: string) => {
      if (startModules.has(id)) return;
      startModules.add(id);
      for (const imported of this.getModuleInfo(id)?.importedIds ?? []) visit(imported);
    };
    for (const id of this.getModuleIds()) if (this.getModuleInfo(id)?.isEntry) visit(id);
  },
};

/**
 * Nearly all of the entry chunk runs as the page starts (React hydrating the page), so it
 * carries V8's compile hint: Chromium then compiles it whole while it streams in, on a
 * background thread, instead of function by function on the main thread as each is first
 * called. The hint must open the file.
 */
const compileEntryEagerly: Plugin = {
  name: "compile-entry-eagerly",
  apply: "build",
  // Written to the file itself: the bundler here neither keeps such a comment nor takes changes to a finished chunk.
  writeBundle(options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== "chunk" || !chunk.isEntry) continue;
      const file = path.join(options.dir ?? "", chunk.fileName);
      writeFileSync(file, `//# allFunctionsCalledOnLoad\n${readFileSync(file, "utf8")}`);
    }
  },
};

/**
 * Dynamic imports as they are written: with modulePreload off and no stylesheet in a chunk loaded
 * later, Vite's preloading helper would only pass each one through.
 */
const PRELOAD_HELPER = "\0vite/preload-helper.js";
const plainDynamicImports: Plugin = {
  name: "plain-dynamic-imports",
  apply: "build",
  enforce: "pre",
  load: (id) => (id === PRELOAD_HELPER ? "export const __vitePreload = (load) => load();" : undefined),
  generateBundle: {
    order: "post",
    handler(_options, bundle) {
      // The entry's stylesheet is in the page's head; one of a chunk loaded later would need the helper.
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === "chunk" && !chunk.isEntry && chunk.viteMetadata?.importedCss.size)
          this.error(`${chunk.fileName} has a stylesheet`);
      }
    },
  },
};

/**
 * A build that prints a warning fails: each is fixed where it points, never left to scroll by.
 * The logger sees exactly what would be printed (the bundler's own log holds more, which Vite filters).
 */
function warningsFail(): Logger {
  const logger = createLogger();
  const failed = (message: string) => {
    logger.error(`build warning (fix it where it points): ${message}`);
    process.exitCode = 1;
  };
  return { ...logger, warn: failed, warnOnce: failed };
}

/** How long plugins took says how busy the machine was, not what to fix in the sources: not a warning here. */
const CHECKS = { bundlerTimings: false };

/**
 * One config for both builds: `vite build` writes the browser bundle (hashed, under
 * /portal/assets/) to dist/client; `vite build --ssr client/entry-server.tsx` writes the
 * server renderer to dist/ssr. The server loads them in production without Vite.
 */
export default defineConfig(({ command, isSsrBuild }) => ({
  ...(command === "build" ? { customLogger: warningsFail() } : {}),
  base: "/portal/",
  plugins: [react(), ...(isSsrBuild ? [] : [findStartModules, plainDynamicImports, compileEntryEagerly])],
  resolve: {
    // React 19 has useSyncExternalStore: the shim SWR and wouter import for React 17 and older is dead weight.
    alias: [{ find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: "react" }],
  },
  build: isSsrBuild
    ? { outDir: "dist/ssr", emptyOutDir: true, copyPublicDir: false, rolldownOptions: { checks: CHECKS } }
    : {
        outDir: "dist/client",
        emptyOutDir: true,
        manifest: true,
        assetsDir: "assets",
        // No list of each lazy chunk's imports to preload (half a kilobyte): the server preloads the first page's modules from
        // its head, and a page opened later has its data requested beside its code (page-switch.tsx), so the
        // modules its chunk imports in turn are fetched while the data is on its way.
        modulePreload: false,
        rolldownOptions: {
          checks: CHECKS,
          output: {
            // Everything the app starts with is one file (one request, and compressed as a whole):
            // left to itself, the bundler moves what the entry shares with a part loaded later
            // into extra shared files. Out of it stay each page's own code and what is loaded
            // later (hydration/later-part.tsx), which the bundler splits into chunks of their own.
            codeSplitting: { groups: [{ name: "index", test: (id: string) => startModules.has(id) || REACT_DOM.test(id) }] },
          },
        },
      },
}));
