/**
 * HTTP from the run's side: one request with everything about its answer (and whether
 * the answer arrived whole), and a closed-loop load of N connections that records every
 * request, for the sections that must judge each answer (faults, shutdown).
 */
import http from "node:http";

export interface RequestSpec {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Free label for the caller (e.g. "warm-page", "cold-api"). */
  kind?: string;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Outcome {
  spec: RequestSpec;
  /** Milliseconds since the load started, when the request was handed to the socket layer. */
  startedMs: number;
  /** When the request was completely written (undefined: never written). */
  sentMs?: number;
  endedMs: number;
  answer?: Answer;
  /** Set when the exchange failed: before any answer, or with the answer broken off. */
  error?: string;
  /** True when response headers arrived but the body did not complete. */
  brokenAnswer: boolean;
}

/** One request; never throws: failures are in `error`. */
export function exchange(
  origin: string,
  spec: RequestSpec,
  agent: http.Agent | false,
  timeoutMs = 15_000,
  t0 = Date.now(),
): Promise<Outcome> {
  const url = new URL(origin);
  const startedMs = Date.now() - t0;
  return new Promise((resolve) => {
    let settled = false;
    let sentMs: number | undefined;
    let headersIn = false;
    const done = (answer: Answer | undefined, error: string | undefined) => {
      if (settled) return;
      settled = true;
      resolve({ spec, startedMs, sentMs, endedMs: Date.now() - t0, answer, error, brokenAnswer: headersIn && error !== undefined });
    };
    let req: http.ClientRequest;
    try {
      req = http.request(
        { host: url.hostname, port: url.port, method: spec.method ?? "GET", path: spec.path, headers: spec.headers, agent },
        (res) => {
          headersIn = true;
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("aborted", () => done(undefined, "answer broken off"));
          res.on("error", (err) => done(undefined, `answer broken off: ${err.message}`));
          res.on("end", () => {
            const body = Buffer.concat(chunks);
            const declared = res.headers["content-length"];
            if (declared !== undefined && spec.method !== "HEAD" && Number(declared) !== body.length && res.statusCode !== 304) {
              done(undefined, `answer of ${body.length} bytes where ${declared} were declared`);
              return;
            }
            done({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString("utf8") }, undefined);
          });
        },
      );
    } catch (err) {
      done(undefined, `not sent: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", (err) => done(undefined, (err as NodeJS.ErrnoException).code ?? err.message));
    req.on("finish", () => {
      sentMs = Date.now() - t0;
    });
    req.end(spec.body);
  });
}

export interface LoadOptions {
  origin: string;
  connections: number;
  /** The next request; `n` counts requests started across all connections. */
  next: (n: number) => RequestSpec;
  /** Every finished request. */
  onOutcome: (outcome: Outcome) => void;
  timeoutMs?: number;
}

export interface RunningLoad {
  t0: number;
  /** Milliseconds since the load started. */
  elapsed(): number;
  started(): number;
  /** Stops starting requests and resolves when every connection's last request finished. */
  stop(): Promise<void>;
}

/** A closed loop: `connections` keep-alive connections, each starting its next request when its last one ends. */
export function startLoad(options: LoadOptions): RunningLoad {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections, maxFreeSockets: options.connections });
  const t0 = Date.now();
  let running = true;
  let n = 0;
  const loops = Array.from({ length: options.connections }, async () => {
    while (running) {
      const outcome = await exchange(options.origin, options.next(n++), agent, options.timeoutMs, t0);
      options.onOutcome(outcome);
      // A refused connection is answered at once; do not spin on it.
      if (outcome.error && !outcome.answer) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
  return {
    t0,
    elapsed: () => Date.now() - t0,
    started: () => n,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, polling; false when it never did within `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return check();
}
