/**
 * What the Deployment's data volume must hold (docs/operations.md, "What to mount"), for
 * scripts/deploy-check.ts: the image cache at its bound (IMAGE_CACHE_MB) and every search
 * index file twice (a rebuild writes the next beside the last before it replaces it), each
 * index of the items the Deployment says it is sized for at the measured bytes per item.
 */
import path from "node:path";
import type { Config } from "../server/config.ts";
import { bytesOf, type Doc, oneOf } from "./kubernetes-manifests.ts";

/** The Deployment's annotation stating how many items (news, notices, products, services, jobs) one language's index holds. */
export const ITEMS_ANNOTATION = "portal/search-items-per-language";
/** The image's WORKDIR (Dockerfile): relative folders in the settings are under it. */
const IMAGE_WORKDIR = "/app";
/** Above the bytes counted: file system blocks, image variants being written, SQLite's journal. */
const HEADROOM = 1.1;
const MIB = 1024 * 1024;

export interface SearchIndexMeasure {
  bytesPerItem: number;
}

export interface DataVolumeNeed {
  imageCacheBytes: number;
  /** One per language indexed: the workers of an instance share them (docs/behaviour.md#search). */
  indexFiles: number;
  indexFileBytes: number;
  totalBytes: number;
}

type VolumeSettings = Pick<Config, "images" | "contentLangParam" | "langs">;

export function dataVolumeNeed(config: VolumeSettings, itemsPerLanguage: number, measure: SearchIndexMeasure): DataVolumeNeed {
  // With content read by language, each language of the site has an index of its own (docs/behaviour.md#search).
  const languages = config.contentLangParam === undefined ? 1 : config.langs.length;
  const indexFiles = languages;
  const indexFileBytes = itemsPerLanguage * measure.bytesPerItem;
  const totalBytes = Math.ceil((config.images.cacheMaxBytes + 2 * indexFiles * indexFileBytes) * HEADROOM);
  return { imageCacheBytes: config.images.cacheMaxBytes, indexFiles, indexFileBytes, totalBytes };
}

const mib = (bytes: number) => `${Math.ceil(bytes / MIB)} MiB`;

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** The data volume's checks against the parsed manifests and the settings they give the server. */
export function dataVolumeChecks(docs: Doc[], config: VolumeSettings & Pick<Config, "search">, measure: SearchIndexMeasure): Check[] {
  const deployment = oneOf(docs, "Deployment");
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const inImage = (folder: string) => path.posix.resolve(IMAGE_WORKDIR, folder);
  const stored = [inImage(config.images.cacheDir), inImage(path.posix.dirname(config.search.indexPath))];
  const mount = (container.volumeMounts ?? []).find((m: Doc) =>
    stored.every((folder) => folder === m.mountPath || folder.startsWith(`${m.mountPath}/`)),
  );
  const volume = pod.volumes?.find((v: Doc) => v.name === mount?.name);
  const checks: Check[] = [
    {
      name: "kubernetes: the image cache and the search index are on one mounted volume",
      ok: volume !== undefined,
      detail: `${stored.join(" and ")} under none of ${(container.volumeMounts ?? []).map((m: Doc) => m.mountPath).join(", ")}`,
    },
  ];
  if (!volume) return checks;
  const itemsText = deployment.metadata.annotations?.[ITEMS_ANNOTATION];
  const items = Number(itemsText);
  checks.push({
    name: `kubernetes: the Deployment states the search index's items per language (${ITEMS_ANNOTATION})`,
    ok: Number.isSafeInteger(items) && items > 0,
    detail: `annotation ${ITEMS_ANNOTATION}: ${JSON.stringify(itemsText)} is not a whole number of items above 0`,
  });
  if (!(Number.isSafeInteger(items) && items > 0)) return checks;
  const need = dataVolumeNeed(config, items, measure);
  const sizeLimit = volume.emptyDir?.sizeLimit;
  const limitBytes = volume.emptyDir ? bytesOf(sizeLimit) : Number.POSITIVE_INFINITY;
  checks.push({
    name: `kubernetes: the data volume (${mount.mountPath}) holds the image cache and the search index while it is rebuilt`,
    ok: limitBytes >= need.totalBytes,
    detail:
      `sizeLimit ${sizeLimit} is less than the ${mib(need.totalBytes)} it may hold: the image cache's ${mib(need.imageCacheBytes)} ` +
      `(IMAGE_CACHE_MB) + ${need.indexFiles} search index file(s) twice during a rebuild, each ${items} items × ` +
      `${measure.bytesPerItem} B (${ITEMS_ANNOTATION}, deploy/measured.json) = ${mib(need.indexFileBytes)}, + a tenth`,
  });
  if (volume.emptyDir) {
    const requested = container.resources?.requests?.["ephemeral-storage"];
    checks.push({
      name: "kubernetes: the pod requests the ephemeral storage its data volume may fill",
      ok: bytesOf(requested) >= limitBytes,
      detail: `requests.ephemeral-storage ${requested} is below the data volume's sizeLimit ${sizeLimit}`,
    });
  }
  return checks;
}
