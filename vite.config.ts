import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * One config for both builds: `vite build` writes the browser bundle (hashed, under
 * /portal/assets/) to dist/client; `vite build --ssr client/entry-server.tsx` writes the
 * server renderer to dist/ssr. The server loads them in production without Vite.
 */
export default defineConfig(({ isSsrBuild }) => ({
  base: "/portal/",
  plugins: [react()],
  resolve: {
    // React 19 has useSyncExternalStore: the shim SWR and wouter import for React 17 and older is dead weight.
    alias: [{ find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: "react" }],
  },
  build: isSsrBuild
    ? { outDir: "dist/ssr", emptyOutDir: true, copyPublicDir: false }
    : { outDir: "dist/client", emptyOutDir: true, manifest: true, assetsDir: "assets" },
}));
