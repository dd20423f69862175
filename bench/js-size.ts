/**
 * The home page's JavaScript as the browser downloads it on a first visit, measured from
 * the build: the entry chunk of index.html and the home page's chunk, with everything
 * they import statically, each compressed with gzip at zlib's default level (what the
 * server's compression middleware sends). Chunks loaded later (other pages, dynamic
 * imports) are not counted.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export interface JsSize {
  files: { file: string; bytes: number; gzipBytes: number }[];
  bytes: number;
  gzipBytes: number;
}

export const HOME_PAGE_MODULE = "client/pages/home.tsx";

export function homePageJs(distClientDir: string): JsSize {
  const manifest = JSON.parse(readFileSync(path.join(distClientDir, ".vite/manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  const entries = Object.entries(manifest)
    .filter(([, chunk]) => chunk.isEntry)
    .map(([key]) => key);
  if (!manifest[HOME_PAGE_MODULE]) throw new Error(`the build manifest has no ${HOME_PAGE_MODULE}`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) return;
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of [...entries, HOME_PAGE_MODULE]) visit(key);
  const files = [...seen]
    .map((key) => (manifest[key] as ManifestChunk).file)
    .filter((file) => file.endsWith(".js"))
    .map((file) => {
      const content = readFileSync(path.join(distClientDir, file));
      return { file, bytes: content.length, gzipBytes: gzipSync(content).length };
    })
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  return {
    files,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
  };
}
