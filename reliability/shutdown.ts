/**
 * Shutdown: SIGTERM while the server is under load, with many requests in flight (the
 * stand-in upstream answers after 300 ms, and one request in three asks for a key
 * nobody asked for before, so those wait on it). Every request the server had received
 * when the signal came (sent at least IN_FLIGHT_GUARD_MS before it) gets its whole
 * answer, 200; no answer anywhere is broken off, and none the server logged as sent went
 * missing; requests sent after the signal may only be refused or reset before any answer;
 * the process exits 0 as soon as its requests are done (well before the forced close of
 * whatever is left after 10 s), even though keep-alive clients keep sending. Then a
 * load balancer's view: a rolling restart of two instances behind nginx under load, with
 * not one failed request (rolling-restart.ts).
 */
import { readFileSync } from "node:fs";
import { startServer } from "../harness/server-process.ts";
import { logFileOf, type RunContext, round } from "./context.ts";
import { Checks, type SectionResult } from "./report.ts";
import { runRollingRestart } from "./rolling-restart.ts";
import { serverEnv } from "./server.ts";
import { exchange, type Outcome, sleep, startLoad } from "./traffic.ts";
import { startControlledUpstream } from "./upstream.ts";

/** A request written this long before the signal has certainly been read by the server. */
const IN_FLIGHT_GUARD_MS = 100;
const UPSTREAM_DELAY_MS = 300;
/** Reads held at the upstream before the signal (the check asks for 10 in flight), and how long to wait for them. */
const MIN_HELD = 24;
const HELD_WAIT_MS = 10_000;
/** server/index.ts gives requests in flight 10 s, then closes every connection left. */
const FORCED_CLOSE_MS = 10_000;

export async function runShutdown(ctx: RunContext): Promise<SectionResult> {
  const alone = await runSigtermUnderLoad(ctx);
  const rolling = await runRollingRestart(ctx);
  return {
    section: alone.section,
    headline: `${alone.headline}; ${rolling.headline}`,
    checks: [...alone.checks, ...rolling.checks.list],
    figures: [...alone.figures, ...rolling.figures],
    logs: [...(alone.logs ?? []), ...rolling.logs],
  };
}

/** One server, SIGTERM under load, no drain: what happens to the requests it had. */
async function runSigtermUnderLoad(ctx: RunContext): Promise<SectionResult> {
  const checks = new Checks();
  const upstream = await startControlledUpstream(ctx.site, ctx.workDir);
  const logFile = logFileOf(ctx, "shutdown");
  const server = await startServer({
    name: "shutdown server",
    logFile,
    cpus: ctx.serverCpus,
    // No upstream timeout within the test: a slow machine must not turn an in-flight request into a 504.
    env: serverEnv({ API_BASE_URL: upstream.url, PORTAL_CLASSIFY: upstream.classifyJson, UPSTREAM_TIMEOUT_MS: "30000" }),
  });
  const outcomes: Outcome[] = [];
  let load: ReturnType<typeof startLoad> | undefined;
  try {
    const warm = ["/portal/index.html", "/portal/message/news/1", "/api/portal/sys/menu/list", "/portal/about/index.html"];
    for (const path of warm) await exchange(server.origin, { path }, false);
    upstream.slowMs = UPSTREAM_DELAY_MS;
    await upstream.setMode("slow");
    let cold = 0;
    load = startLoad({
      origin: server.origin,
      connections: 48,
      timeoutMs: 30_000,
      // Each request names itself, so the server's log tells which ones it answered.
      next: (n) =>
        n % 3 === 0
          ? {
              path: `/portal/message/notice/list.html?page=${1000 + cold++}`,
              kind: "cold",
              headers: { "x-request-id": `reliability-${n}` },
            }
          : { path: warm[n % warm.length] as string, kind: "warm", headers: { "x-request-id": `reliability-${n}` } },
      onOutcome: (o) => outcomes.push(o),
    });
    await sleep(ctx.short ? 3000 : 8000);
    // The signal comes once the slow upstream holds enough of the cold pages' reads, as a busy site's would.
    for (const until = Date.now() + HELD_WAIT_MS; upstream.held() < MIN_HELD && Date.now() < until; ) await sleep(10);
    // Cold reads come in waves (the connections take them at once): the wave is let age past the guard, not its end.
    await sleep(2 * IN_FLIGHT_GUARD_MS);
    const sigtermMs = load.elapsed();
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    const code = await Promise.race([server.exited, sleep(FORCED_CLOSE_MS + 5000).then(() => "still running" as const)]);
    const exitMs = Date.now() - signalled;
    await load.stop();

    const inFlight = outcomes.filter((o) => o.sentMs !== undefined && o.sentMs < sigtermMs - IN_FLIGHT_GUARD_MS && o.endedMs >= sigtermMs);
    const unfinished = inFlight.filter((o) => o.answer?.status !== 200);
    const broken = outcomes.filter((o) => o.brokenAnswer);
    const after = outcomes.filter((o) => o.startedMs >= sigtermMs);
    const refused = after.filter((o) => !o.answer);
    const badRefusals = refused.filter((o) => !/ECONNREFUSED|ECONNRESET|socket hang up|EPIPE/.test(o.error ?? ""));
    const before = outcomes.filter((o) => o.endedMs < sigtermMs);
    const failedBefore = before.filter((o) => o.answer?.status !== 200);

    checks.add("requests were in flight when SIGTERM came (at least 10)", inFlight.length >= 10, `${inFlight.length}`);
    checks.add(
      "every request in flight at SIGTERM finished with its whole answer",
      unfinished.length === 0,
      unfinished
        .slice(0, 5)
        .map((o) => `${o.spec.path}: ${o.error ?? o.answer?.status}`)
        .join("\n"),
    );
    checks.add(
      "no answer was ever broken off",
      broken.length === 0,
      broken
        .slice(0, 5)
        .map((o) => `${o.spec.path}: ${o.error}`)
        .join("\n"),
    );
    checks.add(
      "requests after SIGTERM are answered, or refused before any answer",
      badRefusals.length === 0,
      badRefusals
        .slice(0, 5)
        .map((o) => `${o.spec.path}: ${o.error}`)
        .join("\n"),
    );
    checks.add("every answer before SIGTERM was 200", failedBefore.length === 0, `${failedBefore.length} were not`);
    // Answers the server logged as sent (2xx) that never reached their client: cut off by a forced close.
    const logged = readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line.includes('"msg":"request"') && line.includes('"reqId":"reliability-'))
      .map((line) => JSON.parse(line) as { reqId: string; status: number });
    const received = new Set(outcomes.filter((o) => o.answer).map((o) => o.spec.headers?.["x-request-id"]));
    const lost = logged.filter((entry) => entry.status < 300 && !received.has(entry.reqId));
    checks.add(
      "no answer the server sent was lost (its log against what clients received)",
      lost.length === 0,
      `${lost.length}: ${lost
        .slice(0, 5)
        .map((e) => e.reqId)
        .join(", ")}`,
    );
    checks.add(
      `the process exits 0 once its requests are done, before the ${FORCED_CLOSE_MS / 1000} s forced close`,
      code === 0 && exitMs < FORCED_CLOSE_MS,
      `exit ${code} after ${exitMs} ms`,
    );
    checks.add('it logs "stopped"', /"msg":"stopped"/.test(readFileSync(logFile, "utf8")));

    return {
      section: "shutdown",
      headline: `shutdown: ${inFlight.length} requests in flight at SIGTERM, ${inFlight.length - unfinished.length} finished whole, exit ${code} after ${round(exitMs / 1000, 1)} s`,
      checks: checks.list,
      figures: [
        `SIGTERM after ${round(sigtermMs / 1000, 1)} s of load at 48 connections (${before.length} answered before)`,
        `${inFlight.length} in flight at SIGTERM, ${inFlight.length - unfinished.length} finished whole`,
        `${after.length - refused.length} later requests answered, ${refused.length} refused`,
        `exit ${code} after ${exitMs} ms`,
      ],
      logs: [logFile],
    };
  } finally {
    await load?.stop();
    await server.stop();
    await upstream.close();
  }
}
