// Liveness and readiness for load balancers (docs/behaviour.md#health-and-logs).
import { Router } from "express";
import { API_PREFIX } from "../../shared/api-calls.ts";
import { type MissGate, tooManyMisses } from "../admission/miss-budget.ts";
import { createGeneratedCache } from "../cache/generated-cache.ts";
import type { SharedTierState } from "../redis/redis-connection.ts";

interface UpstreamProbe {
  request(method: "GET", path: string): Promise<{ status: number }>;
}

interface ReadinessDeps {
  upstream: UpstreamProbe;
  database?: { ping(): Promise<void> };
  sharedTier?: { state(): SharedTierState | "not used" };
  /** Entries the caches hold, which can answer while the upstream cannot. */
  cachedEntries?: () => number;
  phase?: () => Phase;
  now?: () => number;
}

export type Phase = "starting" | "serving" | "draining";

type ReadinessStatus = "ready" | "degraded" | "not ready" | "starting" | "draining";

export interface Readiness {
  ready: boolean;
  status: ReadinessStatus;
  reachable: boolean;
  database: "open" | "unavailable" | "not used";
  sharedTier: SharedTierState | "not used";
}

const READINESS_KEEP_MS = 1000;

async function upstreamReachable(upstream: UpstreamProbe): Promise<boolean> {
  try {
    const res = await upstream.request("GET", `${API_PREFIX}/sys/syscfg?imgScope=0`);
    return res.status >= 200 && res.status <= 299;
  } catch {
    return false;
  }
}

async function databaseState(database: ReadinessDeps["database"]): Promise<Readiness["database"]> {
  if (!database) return "not used";
  try {
    await database.ping();
    return "open";
  } catch {
    return "unavailable";
  }
}

export function createReadiness(deps: ReadinessDeps): () => Promise<Readiness> {
  const checked = createGeneratedCache<Pick<Readiness, "reachable" | "database">>(deps.now);
  const check = async () => {
    const [reachable, database] = await Promise.all([upstreamReachable(deps.upstream), databaseState(deps.database)]);
    return { value: { reachable, database }, freshForMs: READINESS_KEEP_MS };
  };
  // The phase, the caches and Redis's state are read at each call: they cost nothing, and a drain shows at once.
  return async () => {
    const { reachable, database } = (await checked.get("ready", check)).value;
    const sharedTier = deps.sharedTier?.state() ?? "not used";
    const phase = deps.phase?.() ?? "serving";
    const upstreamServes = reachable && database !== "unavailable";
    const sharing = sharedTier === "connected" || sharedTier === "not used";
    let status: ReadinessStatus;
    if (phase !== "serving") status = phase;
    else if (upstreamServes) status = sharing ? "ready" : "degraded";
    else status = (deps.cachedEntries?.() ?? 0) > 0 ? "degraded" : "not ready";
    return { ready: status === "ready" || status === "degraded", status, reachable, database, sharedTier };
  };
}

interface HealthDeps {
  readiness: () => Promise<Readiness>;
  missBudget: MissGate;
}

export function createHealthRouter(deps: HealthDeps): Router {
  const router = Router();
  router.get("/portal/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok" });
  });
  router.get("/portal/readyz", async (req, res) => {
    const admitted = await deps.missBudget.take(req.ip);
    if (!admitted.ok) throw tooManyMisses(admitted.retryAfterS);
    const { ready, status, reachable, database, sharedTier } = await deps.readiness();
    res
      .status(ready ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({
        status,
        // Named only where there is one, so a single instance's answer says no more than it must.
        ...(sharedTier === "not used" ? {} : { sharedTier }),
        upstream: { reachable },
        database,
      });
  });
  return router;
}
