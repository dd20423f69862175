/**
 * Faults survived: the production server under a steady closed-loop load while the
 * stand-in upstream goes down (port closed), resets connections, answers 500, hangs,
 * answers invalid JSON, answers an HTML error page, and recovers after each.
 *
 * Judged per request:
 * - pages and API answers cached before the faults ("warm") answer 200 throughout
 *   (fresh, or stale while their refresh fails: CACHE_TTL_MS is short, so they go stale
 *   during every fault);
 * - keys nobody asked for before ("cold") are judged by what the stand-in upstream did
 *   with the one request each needs (it records the behaviour every request met): met a
 *   healthy upstream, 200; met a hanging one, 504; met a failing one or never got through
 *   (port closed, connection reset), a clean 502: pages with the error state and its retry
 *   button, API calls with a JSON error envelope, never stored (no-store), never a stack
 *   trace or an internal address;
 * - after the upstream recovers, every cold request started later than one upstream
 *   timeout (plus half a second) reaches it (and so, by the rule above, answers 200);
 * - every request gets a whole answer (no reset, no broken body), the process never
 *   exits, and its memory stays bounded (rule in MEMORY_RULE).
 */
import { writeFile } from "node:fs/promises";
import { leaksInternals } from "../harness/hostile-requests.ts";
import { samplePages, siteItems } from "../harness/page-samples.ts";
import { startServer } from "../harness/server-process.ts";
import { coldSpec, upstreamKeyOf } from "./cold-requests.ts";
import { logFileOf, median, type RunContext, round } from "./context.ts";
import { Checks, type SectionResult } from "./report.ts";
import { sampleMemory, serverEnv } from "./server.ts";
import { exchange, type Outcome, type RequestSpec, sleep, startLoad } from "./traffic.ts";
import { type RecordedRequest, startControlledUpstream, type UpstreamMode } from "./upstream.ts";

/** Generous, so a busy machine does not turn a healthy upstream's answer into a 504. */
const UPSTREAM_TIMEOUT_MS = 3000;
/** Small caches, filled by the cold keys of the healthy warm-up: memory growth later cannot be a cache filling up. */
const CACHE_MAX_MB = 4;
const RECOVERY_GRACE_MS = UPSTREAM_TIMEOUT_MS + 500;
/** A request started this close to the next switch may reach the upstream after it. */
const SWITCH_MARGIN_MS = 1000;
const FAULTS: { mode: UpstreamMode; label: string; expect: 502 | 504 }[] = [
  { mode: "down", label: "down (port closed)", expect: 502 },
  { mode: "reset", label: "down (connections reset)", expect: 502 },
  { mode: "error", label: "erroring (500)", expect: 502 },
  { mode: "hang", label: "hanging", expect: 504 },
  { mode: "invalid-json", label: "invalid JSON", expect: 502 },
  { mode: "html", label: "HTML instead of JSON", expect: 502 },
];
const MEMORY_CAP_MB = 512;
const MEMORY_GROWTH_MB = 64;
/** RSS swings by 100 MB and more between garbage collections under load; medians over a phase are what compare. */
export const MEMORY_RULE = `peak RSS ≤ ${MEMORY_CAP_MB} MB, and median RSS over the last recovery ≤ median over the second half of the healthy warm-up + ${MEMORY_GROWTH_MB} MB`;

const WARM_API = [
  "/api/portal/sys/syscfg",
  "/api/portal/sys/menu/list",
  "/api/portal/message/news/list?pageIndex=0&pageMaxCount=10",
  "/api/portal/message/news/3",
  "/api/portal/product/product/list",
  "/api/portal/plan/company",
  "/api/portal/job/job/list?pageIndex=0&pageMaxCount=10&type=1",
];

interface Phase {
  name: string;
  kind: "ok" | "fault" | "recovery";
  fault?: (typeof FAULTS)[number];
  fromMs: number;
  toMs: number;
}

export async function runFaults(ctx: RunContext): Promise<SectionResult> {
  const checks = new Checks();
  const faultMs = ctx.short ? 3000 : 10_000;
  const recoveryMs = ctx.short ? 6000 : 8000;
  // The short form too: at today's rate (some 750 requests a second here) the heap takes about
  // 15 s to reach its working size, and a baseline taken before it did reads as growth later.
  const healthyMs = 16_000;
  const connections = 32;
  const upstream = await startControlledUpstream(ctx.site, ctx.workDir);
  // Every page type once, at an item the upstream holds.
  const warmPages = samplePages(siteItems(ctx.site)).map((page) => page.path);
  const upstreamPort = new URL(upstream.url).port;
  const logFile = logFileOf(ctx, "faults");
  const server = await startServer({
    name: "faults server",
    logFile,
    cpus: ctx.serverCpus,
    env: serverEnv({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: upstream.classifyJson,
      UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
      CACHE_TTL_MS: "1000",
      CACHE_MAX_MB: String(CACHE_MAX_MB),
    }),
  });
  const memoryT0 = Date.now();
  const memory = sampleMemory(server.pid, 500);
  const outcomes: Outcome[] = [];
  let load: ReturnType<typeof startLoad> | undefined;
  try {
    // Warm-up: every warm key answered once (so cached), then load for a while on a healthy upstream.
    for (const path of [...warmPages, ...WARM_API]) {
      const outcome = await exchange(server.origin, { path }, false);
      checks.add(`warm-up ${path} answers 200`, outcome.answer?.status === 200, outcome.error ?? `status ${outcome.answer?.status}`);
    }
    upstream.record = true;
    let cold = 0;
    const warm = [...warmPages.map((path) => ({ path, kind: "warm-page" })), ...WARM_API.map((path) => ({ path, kind: "warm-api" }))];
    load = startLoad({
      origin: server.origin,
      connections,
      timeoutMs: 15_000,
      next: (n) => (n % 5 === 4 ? coldSpec(cold++) : (warm[n % warm.length] as RequestSpec)),
      // Only error answers are read beyond their status: the others' headers and bodies are let go as
      // they arrive, or a full run would hold every page it was sent (gigabytes at today's rate).
      onOutcome: (o) => outcomes.push(o.answer?.status === 200 ? { ...o, answer: { ...o.answer, headers: {}, body: "" } } : o),
    });
    const running = load;
    const phases: Phase[] = [];
    // A phase ends when its switch is asked for, and the next begins once the switch is done.
    const close = () => {
      const last = phases.at(-1);
      if (last) last.toMs = running.elapsed();
    };
    const open = (phase: Omit<Phase, "fromMs" | "toMs">) => {
      phases.push({ ...phase, fromMs: phases.length ? running.elapsed() : 0, toMs: Number.POSITIVE_INFINITY });
    };
    open({ name: "healthy", kind: "ok" });
    await sleep(healthyMs);
    for (const fault of FAULTS) {
      ctx.log(`  faults: upstream ${fault.label}`);
      close();
      await upstream.setMode(fault.mode);
      open({ name: fault.label, kind: "fault", fault });
      await sleep(faultMs);
      close();
      await upstream.setMode("ok");
      open({ name: `recovered from ${fault.label}`, kind: "recovery", fault });
      await sleep(recoveryMs);
    }
    await running.stop();
    (phases.at(-1) as Phase).toMs = running.elapsed();
    memory.stop();

    const phaseOf = (o: Outcome) => phases.findLast((p) => o.startedMs >= p.fromMs) as Phase;
    const internals = [upstreamPort, "10.0.0.7", "nginx"].map((s) => (s === upstreamPort ? `127.0.0.1:${s}` : s));
    const problems = new Map<string, string[]>();
    /** Faults (by label) during which, or during whose recovery, some request went wrong. */
    const troubled = new Set<string>();
    const problem = (kind: string, o: Outcome, what: string) => {
      const fault = phaseOf(o).fault;
      if (fault) troubled.add(fault.label);
      const list = problems.get(kind) ?? [];
      list.push(`${o.spec.path} at ${o.startedMs} ms (${phaseOf(o).name}): ${what}`);
      problems.set(kind, list);
    };
    const byStatus = new Map<number, number>();
    const recoveredAt = new Map<string, number>();

    // What the upstream did with each key: the behaviour its last request for that key met.
    const metMode = new Map<string, RecordedRequest["mode"]>();
    for (const r of upstream.requests) metMode.set(r.url, r.mode);

    for (const o of outcomes) {
      const phase = phaseOf(o);
      if (!o.answer) {
        problem("every request gets a whole answer", o, o.error ?? "no answer");
        continue;
      }
      const { status, headers, body } = o.answer;
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      if (!o.spec.kind?.startsWith("cold")) {
        if (status !== 200) problem("cached pages and API answers keep answering 200", o, `status ${status}`);
        continue;
      }
      // Judged by what the upstream did with this key (no record: the port was closed, or the connection reset).
      const met = metMode.get(upstreamKeyOf(o.spec.path));
      const expected = met === "ok" ? 200 : met === "hang" ? 504 : 502;
      if (status !== expected) {
        const name =
          expected === 200
            ? "the server recovers when the upstream does"
            : status === 200
              ? "uncached keys get 502/504 while the upstream fails"
              : "a failing upstream gives 502, a hanging one 504";
        problem(name, o, `status ${status} where the upstream ${met === undefined ? "was not reached" : `met "${met}"`}`);
      }
      const settled = o.startedMs >= phase.fromMs + RECOVERY_GRACE_MS && o.startedMs < phase.toMs - SWITCH_MARGIN_MS;
      if (phase.kind === "recovery" && settled && met === undefined) {
        problem("the server recovers when the upstream does", o, "never reached the recovered upstream");
      }
      if (status === 200) {
        if (phase.kind === "recovery" && !recoveredAt.has(phase.name)) recoveredAt.set(phase.name, o.endedMs - phase.fromMs);
        continue;
      }
      if (status !== 502 && status !== 504) continue;
      const page = o.spec.kind === "cold-page";
      const clean = page
        ? String(headers["content-type"]).startsWith("text/html") && body.includes("page-state-error") && body.includes('type="button"')
        : (() => {
            try {
              const json = JSON.parse(body) as { code?: unknown; msg?: unknown };
              return json.code === status && typeof json.msg === "string";
            } catch {
              return false;
            }
          })();
      if (!clean) problem(`error answers are clean: an error page with a retry button, or a JSON error`, o, body.slice(0, 160));
      if (!String(headers["cache-control"]).includes("no-store"))
        problem("error answers are never stored (no-store)", o, `cache-control ${headers["cache-control"]}`);
      if (leaksInternals(body, internals)) problem("error answers show no stack trace or internal address", o, body.slice(0, 160));
    }

    for (const name of [
      "every request gets a whole answer",
      "cached pages and API answers keep answering 200",
      "uncached keys get 502/504 while the upstream fails",
      "a failing upstream gives 502, a hanging one 504",
      "error answers are clean: an error page with a retry button, or a JSON error",
      "error answers are never stored (no-store)",
      "error answers show no stack trace or internal address",
      "the server recovers when the upstream does",
    ]) {
      const list = problems.get(name) ?? [];
      checks.add(name, list.length === 0, list.length ? `${list.length} requests, e.g.\n${list.slice(0, 5).join("\n")}` : undefined);
    }
    for (const fault of FAULTS) {
      const during = outcomes.filter(
        (o) => o.spec.kind?.startsWith("cold") && phaseOf(o).name === fault.label && o.answer?.status === fault.expect,
      );
      checks.add(`cold requests met the upstream ${fault.label}`, during.length > 0, `${during.length} answered ${fault.expect}`);
      checks.add(
        `recovered after ${fault.label}`,
        recoveredAt.has(`recovered from ${fault.label}`),
        "no cold request answered 200 after recovery",
      );
    }
    checks.add("the server process is still running", server.alive());
    const samples = memory.samples.map((m) => ({ atMs: m.atMs - (running.t0 - memoryT0), mb: m.mb }));
    const medianIn = (phase: Phase) => median(samples.filter((m) => m.atMs >= phase.fromMs && m.atMs < phase.toMs).map((m) => m.mb));
    // The baseline: the second half of the healthy warm-up, once the caches are full.
    const healthy = phases[0] as Phase;
    const beforeMb = medianIn({ ...healthy, fromMs: (healthy.fromMs + healthy.toMs) / 2 });
    await writeFile(`${logFile}.rss.json`, JSON.stringify({ phases, samples, medians: phases.map((p) => [p.name, medianIn(p)]) }));
    const lastMb = medianIn(phases.at(-1) as Phase);
    const peakMb = Math.max(...samples.map((m) => m.mb));
    checks.add(
      `memory stays bounded: ${MEMORY_RULE}`,
      peakMb <= MEMORY_CAP_MB && lastMb <= beforeMb + MEMORY_GROWTH_MB,
      `median before ${round(beforeMb)} MB, after ${round(lastMb)} MB, peak ${round(peakMb)} MB`,
    );

    const coldTotal = outcomes.filter((o) => o.spec.kind?.startsWith("cold")).length;
    const maxRecovery = Math.max(...recoveredAt.values());
    const survived = FAULTS.filter(
      (f) =>
        !troubled.has(f.label) &&
        recoveredAt.has(`recovered from ${f.label}`) &&
        outcomes.some((o) => o.spec.kind?.startsWith("cold") && phaseOf(o).name === f.label && o.answer?.status === f.expect),
    ).length;
    return {
      section: "faults survived",
      headline: `faults survived: ${survived}/${FAULTS.length} (upstream down, resetting, erroring, hanging, invalid JSON, HTML; each under load, then recovering)`,
      checks: checks.list,
      figures: [
        `${FAULTS.length} upstream faults under load (down, reset, 500, hang, invalid JSON, HTML), each ${faultMs / 1000} s then recovery`,
        `${outcomes.length} requests at ${connections} connections (${coldTotal} uncached)`,
        `answers ${[...byStatus]
          .sort((a, b) => a[0] - b[0])
          .map(([s, c]) => `${s}×${c}`)
          .join(" ")}`,
        `recovered within ${Number.isFinite(maxRecovery) ? `${round(maxRecovery)} ms` : "never"}`,
        `RSS median ${round(beforeMb)} MB before, ${round(lastMb)} MB after, peak ${round(peakMb)} MB`,
      ],
      logs: [logFile],
    };
  } finally {
    await load?.stop();
    memory.stop();
    await server.stop();
    await upstream.close();
  }
}
