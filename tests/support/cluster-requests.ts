/**
 * Requests and log lines of a server process running worker processes: a GET on a fresh
 * connection each time (so the primary hands it to the next worker), and the JSON lines the
 * workers wrote, found by message and request id.
 */
import http from "node:http";
import { expect, vi } from "vitest";
import type { ServerProcess } from "./server-process.ts";

export interface Answer {
  status: number;
  body: string;
  requestId: string;
}

/** A GET on a new connection each time, so the primary hands each one to the next worker. */
export function getOnNewConnection(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { connection: "close", ...headers } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, requestId: String(res.headers["x-request-id"]) }));
      })
      .on("error", reject);
  });
}

export interface LogEntry {
  msg?: string;
  pid?: number;
  reqId?: string;
  port?: number;
  host?: string;
  [field: string]: unknown;
}

export const entries = (server: ServerProcess) => server.logs.map((line) => JSON.parse(line) as LogEntry);
export const countLogs = (server: ServerProcess, msg: string) => entries(server).filter((e) => e.msg === msg).length;

/** The line `msg` wrote for the request with this id, once written (a worker writes it as the answer leaves). */
export async function lineOf(server: ServerProcess, msg: string, requestId: string): Promise<LogEntry> {
  let found: LogEntry | undefined;
  await vi.waitFor(
    () => {
      found = entries(server).find((e) => e.msg === msg && e.reqId === requestId);
      expect(found).toBeDefined();
    },
    { timeout: 5000, interval: 20 },
  );
  return found as LogEntry;
}
