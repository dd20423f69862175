/**
 * Bad inputs tried, against the production process on a real socket:
 * - a property-based fuzzer (fast-check) over methods, paths, queries, headers and
 *   bodies: never a 5xx, never a stack trace, never a crash, and never an upstream
 *   request outside the allowlist (every request the stand-in upstream received is a
 *   call of the call table (docs/behaviour.md#calls) with a normalised query, or a valid reader PUT);
 * - request smuggling on raw sockets (Content-Length with Transfer-Encoding either way,
 *   duplicate and malformed framing headers, bare LF and lone CR line endings, obs-fold):
 *   each answered 400 with exactly one response, the request hidden behind it never
 *   parsed (it never reaches the upstream), and a pipelined pair of valid requests as
 *   the control that two requests on one connection are seen as two.
 * The cases and how their answers are judged are shared with the hostile-input tests
 * (harness/hostile-requests.ts); here they run against the production process, more of them.
 */
import fc from "fast-check";
import { answerFault, hostileRequestArb, outsideAllowlist } from "../harness/hostile-requests.ts";
import { judgeSmuggling, rawExchange, SMUGGLING } from "../harness/request-smuggling.ts";
import { startServer } from "../harness/server-process.ts";
import { logFileOf, type RunContext } from "./context.ts";
import { Checks, type SectionResult } from "./report.ts";
import { serverEnv } from "./server.ts";
import { exchange } from "./traffic.ts";
import { startControlledUpstream } from "./upstream.ts";

interface FuzzFigures {
  tried: number;
  notSent: number;
  byClass: Map<string, number>;
  failure?: string;
}

async function fuzz(origin: string, runs: number, seed: number): Promise<FuzzFigures> {
  const figures: FuzzFigures = { tried: 0, notSent: 0, byClass: new Map() };
  const result = await fc.check(
    fc.asyncProperty(hostileRequestArb, async ({ method, path, headers, body }) => {
      // A connection per request: a failure reproduces from its own input alone.
      const outcome = await exchange(origin, { method, path, headers, body }, false);
      if (outcome.error?.startsWith("not sent")) {
        // Node refuses to send it (an invalid path or header value): nothing reached the server.
        figures.notSent++;
        return true;
      }
      figures.tried++;
      if (!outcome.answer) throw new Error(`${method} ${path}: no answer (${outcome.error})`);
      const { status, body: text } = outcome.answer;
      const cls = `${Math.floor(status / 100)}xx`;
      figures.byClass.set(cls, (figures.byClass.get(cls) ?? 0) + 1);
      const fault = answerFault(status, text);
      if (fault) throw new Error(`${method} ${path} ${fault}`);
      return true;
    }),
    { numRuns: runs, seed, endOnFailure: false },
  );
  if (result.failed) figures.failure = `seed ${seed}: ${fc.defaultReportMessage(result) ?? "failed"}`.slice(0, 2000);
  return figures;
}

export async function runInputs(ctx: RunContext): Promise<SectionResult> {
  const checks = new Checks();
  const runs = ctx.short ? 2000 : 10_000;
  const upstream = await startControlledUpstream(ctx.site, ctx.workDir);
  const logFile = logFileOf(ctx, "inputs");
  const server = await startServer({
    name: "inputs server",
    logFile,
    cpus: ctx.serverCpus,
    env: serverEnv({ API_BASE_URL: upstream.url, PORTAL_CLASSIFY: upstream.classifyJson, READER_RATE_PER_MIN: "100000" }),
  });
  try {
    upstream.record = true;
    const seed = Date.now() % 2 ** 31;
    const started = Date.now();
    const figures = await fuzz(server.origin, runs, seed);
    const fuzzS = (Date.now() - started) / 1000;
    ctx.log(`  inputs: ${figures.tried} fuzzed requests in ${Math.round(fuzzS)} s`);
    checks.add(`fuzzer: never a 5xx, a stack trace or a lost answer (${runs} cases, seed ${seed})`, !figures.failure, figures.failure);
    checks.add("fuzzer: most cases reached the server", figures.tried >= runs * 0.8, `${figures.tried} of ${runs}`);
    const outside = outsideAllowlist(upstream.requests);
    checks.add(
      "fuzzer: never an upstream request outside the allowlist",
      outside.length === 0,
      outside
        .slice(0, 5)
        .map((r) => `${r.method} ${r.url} ${r.body.slice(0, 80)}`)
        .join("\n"),
    );
    const upstreamCount = upstream.requests.length;
    checks.add("fuzzer: the process never crashed", server.alive());

    // Smuggling: each attempt on its own connection; the hidden request must never be parsed.
    let rejected = 0;
    for (const [index, [name, bytes]] of SMUGGLING.entries()) {
      upstream.clearRecords();
      const reply = await rawExchange(server.port, bytes(index));
      const { ok, statuses, reached } = judgeSmuggling(index, reply, upstream.requests);
      if (ok) rejected++;
      checks.add(
        `smuggling: ${name} is rejected, no second request parsed`,
        ok,
        `${statuses.length} responses (${statuses.join(", ") || "none"})${reached ? ", the hidden request reached the upstream" : ""}`,
      );
    }
    const control = await rawExchange(
      server.port,
      "GET /portal/healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /portal/healthz HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    checks.add("smuggling control: two valid pipelined requests get two answers", (control.match(/HTTP\/1\.1 200 /g) ?? []).length === 2);
    const health = await exchange(server.origin, { path: "/portal/healthz" }, false);
    checks.add("the process answers after it all", server.alive() && health.answer?.status === 200, health.error);

    return {
      section: "bad inputs tried",
      headline: `bad inputs tried: ${figures.tried} fuzzed requests (${figures.failure ? "FAILED" : "0 answered 5xx"}, ${outside.length} upstream requests outside the allowlist) and ${SMUGGLING.length} smuggling attempts (${rejected} rejected)`,
      checks: checks.list,
      figures: [
        `${figures.tried} fuzzed requests in ${Math.round(fuzzS)} s (${[...figures.byClass]
          .sort()
          .map(([c, n]) => `${c} ${n}`)
          .join(", ")}; 5xx 0 required)`,
        ...(figures.notSent ? [`${figures.notSent} more refused by Node's client before sending`] : []),
        `${upstreamCount} upstream requests, ${outside.length} outside the allowlist`,
        `smuggling: ${rejected}/${SMUGGLING.length} attempts rejected with one 400 and nothing parsed behind it`,
      ],
      logs: [logFile],
    };
  } finally {
    await server.stop();
    await upstream.close();
  }
}
