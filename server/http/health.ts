/**
 * Liveness (`/portal/healthz`: the process answers) and readiness (`/portal/readyz`:
 * the upstream answers and the database is open; 503 otherwise), with the cache and
 * upstream figures an operator looks at first. With REDIS_URL, a ready instance that
 * cannot reach Redis says `degraded` (still 200: it serves, from its own state).
 *
 * Readiness costs an upstream request and a database ping, so it is checked at most
 * once a second, concurrent callers sharing one check, and each call is charged to its
 * client's miss budget.
 */
import { Router } from "express";
import { API_PREFIX } from "../../shared/api-calls.ts";
import { createGeneratedCache } from "../cache/generated-cache.ts";
import type { ResponseCache } from "../cache/response-cache.ts";
import type { SharedTier } from "../shared-tier/redis-connection.ts";
import type { UpstreamClient } from "../upstream/client.ts";
import { type MissGate, tooManyMisses } from "./miss-budget.ts";

export interface HealthDeps {
  cache: ResponseCache;
  upstream: UpstreamClient;
  /** The embedded content API's database, when this process runs one. */
  database?: { ping(): Promise<void> };
  missBudget: MissGate;
  /** The tier shared with other instances, when REDIS_URL is set. */
  sharedTier?: Pick<SharedTier, "state">;
  now?: () => number;
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

async function databaseState(database: HealthDeps["database"]): Promise<"open" | "unavailable" | "not used"> {
  if (!database) return "not used";
  try {
    await database.ping();
    return "open";
  } catch {
    return "unavailable";
  }
}

export function createHealthRouter(deps: HealthDeps): Router {
  const router = Router();
  const started = Date.now();
  router.get("/portal/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({
      status: "ok",
      // Which process answered: with WEB_CONCURRENCY > 1, one of several workers.
      pid: process.pid,
      uptimeS: Math.round((Date.now() - started) / 1000),
      cache: deps.cache.stats(),
      upstream: deps.upstream.state(),
    });
  });
  const readiness = createGeneratedCache<{ reachable: boolean; database: Awaited<ReturnType<typeof databaseState>> }>(deps.now);
  const checkReadiness = async () => {
    const [reachable, database] = await Promise.all([upstreamReachable(deps.upstream), databaseState(deps.database)]);
    return { value: { reachable, database }, freshForMs: READINESS_KEEP_MS };
  };
  router.get("/portal/readyz", async (req, res) => {
    const admitted = await deps.missBudget.take(req.ip);
    if (!admitted.ok) throw tooManyMisses(admitted.retryAfterS);
    const { reachable, database } = (await readiness.get("ready", checkReadiness)).value;
    const ready = reachable && database !== "unavailable";
    const sharedTier = deps.sharedTier?.state() ?? "not used";
    const sharing = sharedTier === "connected" || sharedTier === "not used";
    res
      .status(ready ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({
        status: ready ? (sharing ? "ready" : "degraded") : "not ready",
        sharedTier,
        upstream: { reachable, ...deps.upstream.state() },
        database,
        cache: deps.cache.stats(),
      });
  });
  return router;
}
