/**
 * The bench's (m) rows: what a page the cache missed costs the server, taken apart. On an
 * idle server, one request at a time, each page is a miss that is rendered and stored; the
 * server's own stage timings (`portal_page_render_stage_seconds` on its metrics listener)
 * give its data, render and compression time, and /proc its CPU time for the whole miss,
 * counted until the server is idle again.
 */
import http from "node:http";
import { RENDER_STAGES as STAGES, type RenderStage as Stage } from "../server/operations/app-metrics.ts";
import { cpuMsOf, waitIdle } from "./cpu-time.ts";

export interface MissCost {
  misses: number;
  /** Mean milliseconds per miss of each stage, as the server timed it. */
  stageMs: Record<Stage, number>;
  /** Server CPU per miss (ms) in the median round, everything included: parsing, data, render, compression, storing. */
  cpuMs: number;
  /** Server CPU per miss (ms) in each round, in the order run. */
  roundsMs: number[];
  /** Statuses of the misses, which must all be 200. */
  statuses: Map<number, number>;
}

function send(url: string, options: http.RequestOptions = {}, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent: false, ...options }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The stage histogram's sums (seconds) and counts, read from the metrics listener. */
async function stageTotals(metricsOrigin: string): Promise<Record<Stage, { sum: number; count: number }>> {
  const { text } = await send(`${metricsOrigin}/metrics`);
  const read = (stage: Stage, suffix: "sum" | "count") =>
    Number(new RegExp(`^portal_page_render_stage_seconds_${suffix}\\{stage="${stage}"\\} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
  return Object.fromEntries(STAGES.map((s) => [s, { sum: read(s, "sum"), count: read(s, "count") }])) as Record<
    Stage,
    { sum: number; count: number }
  >;
}

/** A hard purge of one page path, authorised by the bearer secret: its next request is a miss. */
export async function purgePage(origin: string, secret: string, path: string): Promise<void> {
  const body = JSON.stringify({ paths: [path], mode: "hard" });
  const res = await send(
    `${origin}/portal/_purge`,
    { method: "POST", headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" } },
    body,
  );
  if (res.status !== 202) throw new Error(`purge of ${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
}

/** The server CPU used by `work`, from an idle server to an idle server again (ms). */
async function cpuOf(pid: number, work: () => Promise<void>): Promise<number> {
  await waitIdle(pid);
  const before = cpuMsOf(pid);
  await work();
  await waitIdle(pid);
  return cpuMsOf(pid) - before;
}

/**
 * The cost of a miss over `paths`, requested one after another (each accepting compression, as browsers do), in
 * `rounds` rounds of equal length: the CPU is the median round's, as the wrk rows take the median of theirs, so a
 * neighbour's burst on a shared machine moves one round, not the figure. `before` runs ahead of each request (a
 * purge), and its own CPU is measured apart, by running it alone as often in the same round, and taken off.
 */
export async function missCost(options: {
  origin: string;
  metricsOrigin: string;
  pid: number;
  paths: string[];
  rounds?: number;
  before?: (path: string) => Promise<void>;
}): Promise<MissCost> {
  const { origin, metricsOrigin, pid, paths, rounds = 1, before } = options;
  const statuses = new Map<number, number>();
  const perRound = Math.ceil(paths.length / rounds);
  const roundsMs: number[] = [];
  await waitIdle(pid);
  const stagesBefore = await stageTotals(metricsOrigin);
  for (let at = 0; at < paths.length; at += perRound) {
    const round = paths.slice(at, at + perRound);
    const withBefore = await cpuOf(pid, async () => {
      for (const path of round) {
        await before?.(path);
        const { status } = await send(origin + path, { headers: { "Accept-Encoding": "gzip, br" } });
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    });
    const beforeAlone = before
      ? await cpuOf(pid, async () => {
          for (const path of round) await before(path);
        })
      : 0;
    roundsMs.push((withBefore - beforeAlone) / round.length);
  }
  const stagesAfter = await stageTotals(metricsOrigin);
  const stageMs = Object.fromEntries(
    STAGES.map((s) => {
      const count = stagesAfter[s].count - stagesBefore[s].count;
      return [s, count === 0 ? Number.NaN : ((stagesAfter[s].sum - stagesBefore[s].sum) * 1000) / count];
    }),
  ) as Record<Stage, number>;
  const sorted = [...roundsMs].sort((x, y) => x - y);
  return { misses: paths.length, stageMs, cpuMs: sorted[Math.floor(sorted.length / 2)] as number, roundsMs, statuses };
}
