// `modulepreload` links from the build's manifest, for what a page loads before it hydrates
// (docs/behaviour.md#start-up-in-the-browser).

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export type BuildManifest = Record<string, ManifestChunk>;

export function modulePreloader(manifest: BuildManifest, base: string): (modules: string[]) => string {
  const reachable = (keys: string[], seen = new Set<string>()): Set<string> => {
    for (const key of keys) {
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      reachable(manifest[key].imports ?? [], seen);
    }
    return seen;
  };
  const loadedByEntry = reachable(Object.keys(manifest).filter((key) => manifest[key]?.isEntry));
  const tags = new Map<string, string>();
  return (modules) => {
    const id = modules.join("\n");
    let html = tags.get(id);
    if (html === undefined) {
      html = [...reachable(modules)]
        .filter((key) => !loadedByEntry.has(key))
        .map((key) => `<link rel="modulepreload" crossorigin href="${base}${manifest[key]?.file}">`)
        .join("");
      tags.set(id, html);
    }
    return html;
  };
}
