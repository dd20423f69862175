/**
 * CI's check of what an operator deploys from: parses deploy/kubernetes/*.yaml,
 * compose.yaml and deploy/systemd/portal.service and holds them to the server. The
 * Deployment's probes are asked of the built server started with the ConfigMap's settings
 * (each must answer 200 on the port its probe names), its ports are the ones those settings
 * give, its memory limit is above the measured peak (deploy/measured.json), and every stop
 * timeout (Kubernetes, compose, systemd) exceeds preStop + drain + grace, and the data
 * volume's sizeLimit holds the image cache and the search index (scripts/data-volume.ts).
 * Exits 0 when all hold, 1 listing what failed.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { freePort } from "../harness/free-port.ts";
import { startEnv, startFlags, startServer } from "../harness/server-process.ts";
import { parseConfig } from "../server/config.ts";
import { PROJECT_ROOT } from "../server/project-root.ts";
import { dataVolumeChecks } from "./data-volume.ts";
import { bytesOf, type Doc, kubernetesDocs, podEnv } from "./kubernetes-manifests.ts";

const failures: string[] = [];
const passed: string[] = [];
const check = (name: string, ok: boolean, detail = "") => {
  if (ok) passed.push(name);
  else failures.push(`${name}${detail ? `: ${detail}` : ""}`);
};

const measured = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "deploy/measured.json"), "utf8")) as {
  peakRssMb: number;
  cacheMaxMb: number;
  searchIndex: { bytesPerItem: number };
};
const PEAK_BYTES = measured.peakRssMb * 1024 * 1024;

/** Seconds in a compose or systemd duration (`20s`, `1m30s`, `30`). */
function secondsOf(duration: string): number {
  const text = String(duration).trim();
  if (/^\d+$/.test(text)) return Number(text);
  let total = 0;
  const units: Record<string, number> = { ms: 0.001, s: 1, min: 60, m: 60, h: 3600 };
  for (const [, n, unit] of text.matchAll(/(\d+)\s*(ms|s|min|m|h)/g)) total += Number(n) * (units[unit as string] ?? Number.NaN);
  return total;
}

async function checkKubernetes(): Promise<{ drainMs: number; graceMs: number }> {
  const docs = kubernetesDocs(path.join(PROJECT_ROOT, "deploy/kubernetes"));
  const byKind = (kind: string) => docs.filter((d) => d?.kind === kind);
  for (const kind of ["Deployment", "Service", "PodDisruptionBudget", "HorizontalPodAutoscaler", "ConfigMap", "Secret"])
    check(`kubernetes: a ${kind}`, byKind(kind).length === 1);
  const deployment = byKind("Deployment")[0];
  const pod = deployment.spec.template;
  const container = pod.spec.containers[0];
  const configMap = byKind("ConfigMap")[0].data as Record<string, string>;
  check(
    "kubernetes: the container takes the ConfigMap and the Secret",
    JSON.stringify(container.envFrom?.map((e: Doc) => Object.keys(e)[0]).sort()) === '["configMapRef","secretRef"]',
  );
  // The settings are the server's to accept: a value it would refuse stops the pod at start.
  const config = parseConfig(podEnv(docs));
  const drainMs = config.shutdown.drainMs;
  const graceMs = config.shutdown.graceMs;

  const portOf = (name: string | number) =>
    typeof name === "number" ? name : container.ports.find((p: Doc) => p.name === name)?.containerPort;
  check("kubernetes: the http port is PORT", portOf("http") === config.port, `${portOf("http")} against ${config.port}`);
  check("kubernetes: METRICS_PORT is set, so the internal listener exists", config.metrics !== undefined);
  check("kubernetes: METRICS_HOST lets the kubelet reach the internal listener", config.metrics?.host === "0.0.0.0", config.metrics?.host);
  const probes = ["readinessProbe", "livenessProbe", "startupProbe"]
    .filter((name) => container[name])
    .map((name) => ({ name, ...container[name].httpGet }));
  check(
    "kubernetes: readiness and liveness probes",
    probes.some((p) => p.name === "readinessProbe") && probes.some((p) => p.name === "livenessProbe"),
  );
  for (const probe of probes)
    check(
      `kubernetes: ${probe.name} is on the internal listener (METRICS_PORT)`,
      portOf(probe.port) === config.metrics?.port,
      `port ${probe.port}`,
    );
  const service = byKind("Service")[0];
  check(
    "kubernetes: the Service sends to the http port",
    service.spec.ports.every((p: Doc) => portOf(p.targetPort) === config.port),
  );
  const labels = pod.metadata.labels as Record<string, string>;
  const selects = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
  check("kubernetes: the Service selects the pods", selects(service.spec.selector));
  check("kubernetes: the PodDisruptionBudget selects the pods", selects(byKind("PodDisruptionBudget")[0].spec.selector.matchLabels));
  check("kubernetes: the Deployment selects its pods", selects(deployment.spec.selector.matchLabels));
  const hpa = byKind("HorizontalPodAutoscaler")[0];
  check(
    "kubernetes: the autoscaler scales the Deployment on CPU",
    hpa.spec.scaleTargetRef.name === deployment.metadata.name && hpa.spec.metrics.some((m: Doc) => m.resource?.name === "cpu"),
  );
  check("kubernetes: CPU is requested (the autoscaler's base)", Boolean(container.resources?.requests?.cpu));

  const limit = bytesOf(container.resources?.limits?.memory);
  const request = bytesOf(container.resources?.requests?.memory);
  check(
    `kubernetes: the memory limit is above the measured peak (${measured.peakRssMb} MiB)`,
    limit > PEAK_BYTES,
    container.resources?.limits?.memory,
  );
  check(`kubernetes: the memory request covers the measured peak`, request >= PEAK_BYTES, container.resources?.requests?.memory);
  check(
    `kubernetes: CACHE_MAX_MB is at most the measured one (${measured.cacheMaxMb})`,
    config.cache.maxBytes <= measured.cacheMaxMb * 1024 * 1024,
    String(config.cache.maxBytes / 1024 / 1024),
  );

  for (const { name, ok, detail } of dataVolumeChecks(docs, config, measured.searchIndex)) check(name, ok, detail);

  const preStop = container.lifecycle?.preStop;
  const preStopS = preStop?.sleep?.seconds ?? (preStop?.exec?.command?.[0] === "sleep" ? Number(preStop.exec.command[1]) : Number.NaN);
  check("kubernetes: a preStop that waits", Number.isFinite(preStopS) && preStopS > 0, JSON.stringify(preStop));
  const terminationS = pod.spec.terminationGracePeriodSeconds ?? 30;
  check(
    "kubernetes: terminationGracePeriodSeconds exceeds preStop + drain + grace",
    terminationS * 1000 > preStopS * 1000 + drainMs + graceMs,
    `${terminationS} s against ${preStopS} + ${drainMs / 1000} + ${graceMs / 1000} s`,
  );
  check(
    "kubernetes: a rolling update keeps every replica until its successor is ready",
    deployment.spec.strategy?.rollingUpdate?.maxUnavailable === 0,
  );
  check("kubernetes: runs as a non-root user", pod.spec.securityContext?.runAsNonRoot === true);

  // The probes asked of the server itself, started with these settings (a database and ports of its own).
  const dir = await mkdtemp(path.join(tmpdir(), "portal-deploy-check-"));
  const [port, metricsPort] = [await freePort(), await freePort()];
  const server = await startServer({
    name: "the server with the ConfigMap's settings",
    logFile: path.join(dir, "server.log"),
    env: {
      PATH: process.env.PATH ?? "",
      ...configMap,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: "127.0.0.1",
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      IMAGE_CACHE_DIR: path.join(dir, "images"),
      SHUTDOWN_DRAIN_MS: "0",
    },
  });
  try {
    for (const probe of probes) {
      const res = await fetch(`http://127.0.0.1:${metricsPort}${probe.path}`);
      check(`kubernetes: ${probe.name} ${probe.path} answers 200 on the internal listener`, res.status === 200, String(res.status));
    }
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return { drainMs, graceMs };
}

function checkCompose(drainMs: number, graceMs: number): void {
  const compose = parseYaml(readFileSync(path.join(PROJECT_ROOT, "compose.yaml"), "utf8")) as Doc;
  const portal = compose.services?.portal;
  check("compose: the site, PostgreSQL and Redis", Boolean(portal && compose.services.postgres && compose.services.redis));
  check("compose: the site is built from the Dockerfile", portal?.build === ".");
  check(
    "compose: the site's data folder is a volume",
    (portal?.volumes ?? []).some((v: string) => String(v).endsWith(":/app/data")),
  );
  check(
    "compose: settings from .env",
    (portal?.env_file ?? []).some((f: Doc) => (f.path ?? f) === ".env"),
  );
  check(
    "compose: the database is the PostgreSQL service",
    /^postgres:\/\/.*@postgres:5432\//.test(portal?.environment?.DATABASE_URL ?? ""),
  );
  check("compose: Redis is the Redis service", portal?.environment?.REDIS_URL === "redis://redis:6379");
  check(
    "compose: the site's port is published",
    (portal?.ports ?? []).some((p: string) => String(p).endsWith(":3000")),
  );
  const stopS = secondsOf(portal?.stop_grace_period ?? "10s");
  check("compose: stop_grace_period exceeds drain + grace", stopS * 1000 > drainMs + graceMs, `${stopS} s`);
}

function checkSystemd(drainMs: number, graceMs: number): void {
  const unit = readFileSync(path.join(PROJECT_ROOT, "deploy/systemd/portal.service"), "utf8");
  const settings = new Map<string, string[]>();
  for (const line of unit.split("\n")) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) settings.set(match[1] as string, [...(settings.get(match[1] as string) ?? []), match[2] as string]);
  }
  const one = (key: string) => settings.get(key)?.at(-1);
  check("systemd: its own user (DynamicUser or User)", one("DynamicUser") === "yes" || Boolean(one("User")));
  check("systemd: ProtectSystem", ["strict", "full", "yes"].includes(one("ProtectSystem") ?? ""));
  check("systemd: NoNewPrivileges", one("NoNewPrivileges") === "yes");
  check("systemd: Restart=on-failure", one("Restart") === "on-failure");
  check("systemd: an EnvironmentFile", Boolean(one("EnvironmentFile")));
  const stopS = secondsOf(one("TimeoutStopSec") ?? "90");
  check("systemd: TimeoutStopSec exceeds drain + grace", stopS * 1000 > drainMs + graceMs, `${stopS} s`);
  const [command, ...args] = (one("ExecStart") ?? "").split(/\s+/);
  check(
    "systemd: starts node directly with npm start's flags",
    /\/node$/.test(command ?? "") && JSON.stringify(args.slice(0, -1)) === JSON.stringify(startFlags()),
    one("ExecStart"),
  );
  const environment = settings.get("Environment") ?? [];
  for (const [name, value] of Object.entries(startEnv()))
    check(`systemd: ${name}=${value}, as npm start sets it`, environment.includes(`${name}=${value}`), environment.join(" "));
  check(
    `systemd: MemoryMax is above the measured peak (${measured.peakRssMb} MiB)`,
    bytesOf((one("MemoryMax") ?? "").replace(/([KMG])$/, "$1i")) > PEAK_BYTES,
    one("MemoryMax"),
  );
}

try {
  const { drainMs, graceMs } = await checkKubernetes();
  checkCompose(drainMs, graceMs);
  checkSystemd(drainMs, graceMs);
} catch (error) {
  failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
}
for (const failure of failures) console.error(`FAIL ${failure}`);
if (failures.length === 0) console.log(`PASS ${passed.length} checks of deploy/kubernetes, compose.yaml and deploy/systemd`);
process.exitCode = failures.length === 0 ? 0 : 1;
