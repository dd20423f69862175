/**
 * The Deployment's data volume against what it holds (scripts/data-volume.ts, run by
 * scripts/deploy-check.ts): the manifests as shipped fit, and a copy that does not fit is
 * refused with a line saying what it must hold.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dataVolumeChecks, dataVolumeNeed, ITEMS_ANNOTATION } from "../../scripts/data-volume.ts";
import { bytesOf, type Doc, kubernetesDocs, oneOf, podEnv } from "../../scripts/kubernetes-manifests.ts";
import { parseConfig } from "../../server/config.ts";
import { PROJECT_ROOT } from "../../server/project-root.ts";

const measured = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "deploy/measured.json"), "utf8")) as {
  searchIndex: { bytesPerItem: number };
};
const shipped = () => kubernetesDocs(path.join(PROJECT_ROOT, "deploy/kubernetes"));

function checksOf(docs: Doc[]) {
  return dataVolumeChecks(docs, parseConfig(podEnv(docs)), measured.searchIndex);
}
const failuresOf = (docs: Doc[]) => checksOf(docs).filter((check) => !check.ok);
const deploymentOf = (docs: Doc[]) => oneOf(docs, "Deployment");
const dataVolume = (docs: Doc[]) => deploymentOf(docs).spec.template.spec.volumes.find((v: Doc) => v.name === "data");

describe("the Kubernetes data volume", () => {
  it("holds, as shipped, the image cache and both languages' search indexes twice over, and the pod requests that room", () => {
    const docs = shipped();
    expect(failuresOf(docs)).toEqual([]);
    expect(checksOf(docs).map((check) => check.name)).toHaveLength(4);
    const need = dataVolumeNeed(parseConfig(podEnv(docs)), 5000, measured.searchIndex);
    // The embedded content API reads content by language: a Chinese and an English index.
    expect(need.indexFiles).toBe(2);
    expect(need.imageCacheBytes).toBe(512 * 1024 * 1024);
    expect(bytesOf(dataVolume(docs).emptyDir.sizeLimit)).toBeGreaterThanOrEqual(need.totalBytes);
  });

  it("refuses the volume that got pods evicted (600Mi), saying what it must hold", () => {
    const docs = shipped();
    dataVolume(docs).emptyDir.sizeLimit = "600Mi";
    const failures = failuresOf(docs);
    expect(failures.map((check) => check.name)).toEqual([
      "kubernetes: the data volume (/app/data) holds the image cache and the search index while it is rebuilt",
    ]);
    expect(failures[0]?.detail).toMatch(
      /^sizeLimit 600Mi is less than the 1452 MiB it may hold: the image cache's 512 MiB \(IMAGE_CACHE_MB\) \+ 2 search index file\(s\) twice during a rebuild, each 5000 items × 42318 B/,
    );
  });

  it("follows the settings: a larger image cache, or more items each need more room; more workers do not", () => {
    const raised = shipped();
    oneOf(raised, "ConfigMap").data.IMAGE_CACHE_MB = "1024";
    expect(failuresOf(raised)).toHaveLength(1);

    const moreItems = shipped();
    deploymentOf(moreItems).metadata.annotations[ITEMS_ANNOTATION] = "10000";
    expect(failuresOf(moreItems)).toHaveLength(1);

    // The workers of an instance share its index files.
    const workers = shipped();
    oneOf(workers, "ConfigMap").data.WEB_CONCURRENCY = "2";
    expect(failuresOf(workers)).toEqual([]);

    // An external CMS without a language parameter: one index answers both languages, and the room suffices.
    const external = shipped();
    Object.assign(oneOf(external, "ConfigMap").data, { API_BASE_URL: "https://cms.example.com" });
    expect(dataVolumeNeed(parseConfig(podEnv(external)), 5000, measured.searchIndex).indexFiles).toBe(1);
    expect(failuresOf(external)).toEqual([]);
  });

  it("refuses a Deployment that states no number of items, a volume not mounted where the data goes, and too small a request", () => {
    const unstated = shipped();
    delete deploymentOf(unstated).metadata.annotations[ITEMS_ANNOTATION];
    expect(failuresOf(unstated).map((check) => check.detail)).toEqual([
      `annotation ${ITEMS_ANNOTATION}: undefined is not a whole number of items above 0`,
    ]);

    const elsewhere = shipped();
    oneOf(elsewhere, "ConfigMap").data.IMAGE_CACHE_DIR = "/var/cache/portal";
    expect(failuresOf(elsewhere).map((check) => check.name)).toEqual([
      "kubernetes: the image cache and the search index are on one mounted volume",
    ]);

    const small = shipped();
    deploymentOf(small).spec.template.spec.containers[0].resources.requests["ephemeral-storage"] = "600Mi";
    expect(failuresOf(small).map((check) => check.name)).toEqual([
      "kubernetes: the pod requests the ephemeral storage its data volume may fill",
    ]);
  });
});
