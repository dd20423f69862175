/** The Kubernetes manifests as scripts/deploy-check.ts reads them: every document of deploy/kubernetes/*.yaml. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";

// biome-ignore lint/suspicious/noExplicitAny: manifests are untyped documents, checked field by field by their readers.
export type Doc = any;

export function kubernetesDocs(dir: string): Doc[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".yaml"))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(path.join(dir, file), "utf8")).map((doc) => {
        if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
        return doc.toJS() as Doc;
      }),
    );
}

/** The one document of a kind (undefined when there is none). */
export const oneOf = (docs: Doc[], kind: string): Doc => docs.find((doc) => doc?.kind === kind);

/** The variables the server starts with: the ConfigMap's, the container's own, the Secret's. */
export function podEnv(docs: Doc[]): Record<string, string> {
  const container = oneOf(docs, "Deployment").spec.template.spec.containers[0];
  const env: Record<string, string> = { ...(oneOf(docs, "ConfigMap")?.data ?? {}) };
  for (const entry of container.env ?? []) env[entry.name] = String(entry.value);
  return { ...env, ...(oneOf(docs, "Secret")?.stringData ?? {}) };
}

/** A Kubernetes quantity of bytes (`320Mi`, `256M`, `1Gi`); NaN when it is none. */
export function bytesOf(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|K|M|G|T)?$/.exec(String(quantity));
  if (!match) return Number.NaN;
  const unit = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, K: 1e3, M: 1e6, G: 1e9, T: 1e12 }[match[2] ?? ""] ?? 1;
  return Number(match[1]) * unit;
}
