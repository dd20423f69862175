/**
 * Liveness (`/portal/healthz`: the process answers) and readiness (`/portal/readyz`:
 * the upstream answers and the database is open; 503 otherwise), for load balancers.
 * They say no more than that: the process, its caches and the upstream's history are
 * the internal listener's to show (server/metrics/internal-listener.ts), not the public's.
 * With REDIS_URL, a ready instance that cannot reach Redis says `degraded` (still 200: it
 * serves, from its own state).
 *
 * Readiness costs an upstream request and a database ping, so it is checked at most
 * once a second, concurrent callers sharing one check, and each public call is charged
 * to its client's miss budget.
 */
import { Router } from "express";
import { API_PREFIX } from "../../shared/api-calls.ts";
import { createGeneratedCache } from "../cache/generated-cache.ts";
import type { SharedTier, SharedTierState } from "../shared-tier/redis-connection.ts";
import type { UpstreamClient } from "../upstream/client.ts";
import { type MissGate, tooManyMisses } from "./miss-budget.ts";

export interface ReadinessDeps {
  upstream: UpstreamClient;
  /** The embedded content API's database, when this process runs one. */
  database?: { ping(): Promise<void> };
  /** The tier shared with other instances, when REDIS_URL is set. */
  sharedTier?: Pick<SharedTier, "state">;
  now?: () => number;
}

export interface Readiness {
  ready: boolean;
  reachable: boolean;
  database: "open" | "unavailable" | "not used";
  sharedTier: SharedTierState | "not used";
}

/** How long one readiness check answers for. */
const READINESS_KEEP_MS = 1000;

async function upstreamReachable(upstream: UpstreamClient): Promise<boolean> {
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

/** The readiness check, shared by the public endpoint and the internal listener. */
export function createReadiness(deps: ReadinessDeps): () => Promise<Readiness> {
  const checked = createGeneratedCache<Omit<Readiness, "sharedTier">>(deps.now);
  const check = async () => {
    const [reachable, database] = await Promise.all([upstreamReachable(deps.upstream), databaseState(deps.database)]);
    return { value: { ready: reachable && database !== "unavailable", reachable, database }, freshForMs: READINESS_KEEP_MS };
  };
  // Redis's state is read at each call: it costs nothing, and a reconnection shows at once.
  return async () => ({ ...(await checked.get("ready", check)).value, sharedTier: deps.sharedTier?.state() ?? "not used" });
}

export interface HealthDeps {
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
    const { ready, reachable, database, sharedTier } = await deps.readiness();
    const sharing = sharedTier === "connected" || sharedTier === "not used";
    res
      .status(ready ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({
        status: ready ? (sharing ? "ready" : "degraded") : "not ready",
        // Named only where there is one, so a single instance's answer says no more than it must.
        ...(sharedTier === "not used" ? {} : { sharedTier }),
        upstream: { reachable },
        database,
      });
  });
  return router;
}
