/**
 * N requests for one URL at the same moment, each on its own connection (an Agent
 * with N sockets), for the cold-key scenario: wrk would not start them together.
 */
import http from "node:http";

export interface BurstResult {
  statuses: Map<number, number>;
  /** Each request's time to its last byte, in ms, sorted. */
  latenciesMs: number[];
  wallMs: number;
  /** Mean of status line, headers and body, as on the wire (before chunk framing). */
  bytesPerResponse: number;
  headers: http.IncomingHttpHeaders[];
}

export async function burst(url: string, count: number): Promise<BurstResult> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: count });
  const started = performance.now();
  const one = () =>
    new Promise<{ status: number; ms: number; bytes: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const t0 = performance.now();
      http
        .get(url, { agent }, (res) => {
          let bytes = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`.length + 2;
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            bytes += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`.length;
          }
          res.on("data", (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, bytes, headers: res.headers }));
        })
        .on("error", reject);
    });
  const results = await Promise.all(Array.from({ length: count }, one));
  const wallMs = performance.now() - started;
  agent.destroy();
  const statuses = new Map<number, number>();
  for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  return {
    statuses,
    latenciesMs: results.map((r) => r.ms).sort((a, b) => a - b),
    wallMs,
    bytesPerResponse: results.reduce((sum, r) => sum + r.bytes, 0) / results.length,
    headers: results.map((r) => r.headers),
  };
}

/** The p-th percentile (0..100) of sorted values, nearest rank. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}
