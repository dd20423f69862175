/**
 * No lost writes: a real PostgreSQL (`bash .ci/postgres.sh`, a fresh schema for this run),
 * two production server processes in embedded mode on it (TRUST_PROXY=loopback, so each
 * X-Forwarded-For is a distinct client), 1000 reader PUTs for one news item fired at
 * once, half to each process, each from its own client on its own connection. Every PUT
 * is acknowledged 200, the count read through either process rises by exactly 1000
 * (and in the table itself), and after both processes restart every count is unchanged.
 */
import { spawnSync } from "node:child_process";
import pg from "pg";
import { type ServerProcess, startServer } from "../harness/server-process.ts";
import { PROJECT_ROOT } from "../server/project-root.ts";
import { logFileOf, type RunContext } from "./context.ts";
import { Checks, type SectionResult } from "./report.ts";
import { serverEnv } from "./server.ts";
import { exchange } from "./traffic.ts";

const PUTS = 1000;
const NEWS_ID = 7;
const NEWS_TYPE = 2;

function startPostgres(): string {
  const result = spawnSync("bash", [".ci/postgres.sh"], { cwd: PROJECT_ROOT, encoding: "utf8" });
  const url = result.stdout.trim().split("\n").at(-1) ?? "";
  if (result.status !== 0 || !/^postgres(ql)?:\/\//.test(url)) {
    throw new Error(`bash .ci/postgres.sh failed (exit ${result.status}): ${result.stderr.trim().split("\n").slice(-5).join("\n")}`);
  }
  return url;
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function readerCount(server: ServerProcess): Promise<number | string> {
  const outcome = await exchange(server.origin, { path: `/api/portal/reader/reader?type=${NEWS_TYPE}&pid=${NEWS_ID}` }, false);
  if (outcome.answer?.status !== 200) return `status ${outcome.answer?.status ?? outcome.error}`;
  const envelope = JSON.parse(outcome.answer.body) as { code?: number; data?: unknown };
  return envelope.code === 0 && typeof envelope.data === "number" ? envelope.data : `answer ${outcome.answer.body.slice(0, 80)}`;
}

/** One PUT from one client (its own X-Forwarded-For) on its own connection. */
function readerPut(server: ServerProcess, client: number): Promise<{ status: number; body: string; duplicate: boolean } | string> {
  const address = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
  return exchange(
    server.origin,
    {
      method: "PUT",
      path: "/api/portal/reader/reader",
      headers: { "content-type": "application/json", "x-forwarded-for": address },
      body: JSON.stringify({ type: NEWS_TYPE, pid: NEWS_ID }),
    },
    false,
    60_000,
  ).then((o) =>
    o.answer
      ? { status: o.answer.status, body: o.answer.body, duplicate: o.answer.headers["x-reader"] === "duplicate" }
      : (o.error ?? "no answer"),
  );
}

export async function runWrites(ctx: RunContext): Promise<SectionResult> {
  const checks = new Checks();
  const adminUrl = startPostgres();
  const schema = `reliability_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await withClient(adminUrl, async (client) => {
    // Schemas an interrupted earlier run left behind, then this run's own.
    const { rows } = await client.query<{ name: string }>(
      "select nspname as name from pg_namespace where starts_with(nspname, 'reliability_')",
    );
    for (const { name } of rows) await client.query(`drop schema if exists "${name}" cascade`);
    await client.query(`create schema "${schema}"`);
  });
  const databaseUrl = new URL(adminUrl);
  databaseUrl.searchParams.set("options", `-c search_path=${schema}`);
  // A generous upstream deadline: 500 PUTs queue on each process's pool, and a PUT answered 504 whose write
  // still lands would count as a failed acknowledgement here, not as a lost write.
  const env = serverEnv({
    DATABASE_URL: databaseUrl.toString(),
    TRUST_PROXY: "loopback",
    READER_RATE_PER_MIN: "100000",
    UPSTREAM_TIMEOUT_MS: "20000",
  });
  const logs = [logFileOf(ctx, "writes-a"), logFileOf(ctx, "writes-b")];
  const servers: ServerProcess[] = [];
  const start = async () => {
    // One after the other: the first runs the migrations and loads the demo site.
    servers.push(await startServer({ name: "writes server A", logFile: logs[0] as string, cpus: ctx.serverCpus, env }));
    servers.push(await startServer({ name: "writes server B", logFile: logs[1] as string, cpus: ctx.serverCpus, env }));
  };
  try {
    await start();
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const before = await readerCount(a);
    checks.add("the count can be read", typeof before === "number", String(before));
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: PUTS }, (_, i) => readerPut(i % 2 === 0 ? a : b, i + 1)));
    const putMs = Date.now() - started;
    const acknowledged = answers.filter((x) => typeof x !== "string" && x.status === 200 && !x.duplicate && JSON.parse(x.body).code === 0);
    const failed = answers.filter((x) => !acknowledged.includes(x as never));
    checks.add(
      `all ${PUTS} PUTs acknowledged (200, counted, not taken for duplicates)`,
      acknowledged.length === PUTS,
      failed
        .slice(0, 5)
        .map((x) => (typeof x === "string" ? x : `${x.status}${x.duplicate ? " duplicate" : ""} ${x.body.slice(0, 80)}`))
        .join("; "),
    );
    const afterA = await readerCount(a);
    const afterB = await readerCount(b);
    const expected = typeof before === "number" ? before + PUTS : Number.NaN;
    checks.add(
      `the count rose by exactly ${PUTS}, through both processes`,
      afterA === expected && afterB === expected,
      `before ${before}, after ${afterA} (A) and ${afterB} (B)`,
    );
    const stored = await withClient(databaseUrl.toString(), async (client) => {
      const { rows } = await client.query<{ count: string }>("select count from readers where type = $1 and pid = $2", [
        NEWS_TYPE,
        NEWS_ID,
      ]);
      return Number(rows[0]?.count ?? 0);
    });
    checks.add("the table holds the same count", stored === expected, `${stored}`);

    const exits = await Promise.all(servers.splice(0).map((s) => s.stop()));
    checks.add(
      "both processes stop cleanly (exit 0)",
      exits.every((code) => code === 0),
      exits.join(", "),
    );
    await start();
    const [a2, b2] = servers as [ServerProcess, ServerProcess];
    const restartedA = await readerCount(a2);
    const restartedB = await readerCount(b2);
    checks.add(
      "after a restart of both, the count is unchanged",
      restartedA === expected && restartedB === expected,
      `${restartedA} (A), ${restartedB} (B)`,
    );
    const lost = typeof restartedA === "number" ? expected - restartedA : Number.NaN;
    return {
      section: "no lost writes",
      headline: `writes lost: ${lost} (${PUTS} concurrent reader PUTs across 2 processes on one PostgreSQL, ${acknowledged.length} acknowledged; count unchanged after a restart: ${restartedA === expected && restartedB === expected ? "yes" : "no"})`,
      checks: checks.list,
      figures: [
        `${PUTS} concurrent reader PUTs from ${PUTS} clients across 2 processes on one PostgreSQL in ${putMs} ms`,
        `count ${before} → ${afterA}, ${restartedA} after a restart; writes lost ${lost}`,
      ],
      logs,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await withClient(adminUrl, (client) => client.query(`drop schema if exists "${schema}" cascade`)).catch(() => {});
  }
}
