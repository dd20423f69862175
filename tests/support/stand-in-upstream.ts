/**
 * A real upstream content API on 127.0.0.1 for tests: it answers from a table of
 * envelopes, counts every request it receives, and can be told to fail, hang, send
 * invalid JSON, mark its answers uncacheable, or hold the answer to the next request for
 * a path (made when the request arrived) until released.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Behaviour = "ok" | "error" | "hang" | "invalid-json" | "reset";

export interface RecordedRequest {
  method: string;
  url: string;
  body: string;
  /** The X-Request-Id it was sent with, if any. */
  requestId?: string;
}

export interface StandInUpstream {
  url: string;
  requests: RecordedRequest[];
  /** Requests whose path (without query) is `path`. */
  count(path?: string): number;
  behaviour: Behaviour;
  /** Extra headers on every answer, e.g. { "cache-control": "no-store" }. */
  headers: Record<string, string>;
  /** Payloads by path (without query); a function gets the full URL. */
  routes: Map<string, unknown | ((url: URL, body: string) => { status?: number; body: unknown })>;
  /** Holds the answer to the next request for `path`, as it would have been when it arrived; the function sends it. */
  hold(path: string): () => void;
  close(): Promise<void>;
}

export async function startStandInUpstream(routes: Record<string, unknown> = {}): Promise<StandInUpstream> {
  const sockets = new Set<import("node:net").Socket>();
  /** Paths whose next answer is held: each takes the function that sends it. */
  const held = new Map<string, (send: () => void) => void>();
  const state: StandInUpstream = {
    url: "",
    requests: [],
    behaviour: "ok",
    headers: {},
    routes: new Map(Object.entries(routes)),
    count: (path) => state.requests.filter((r) => path === undefined || r.url.split("?")[0] === path).length,
    hold: (path) => {
      let send: (() => void) | undefined;
      let released = false;
      held.set(path, (answer) => {
        held.delete(path);
        if (released) answer();
        else send = answer;
      });
      return () => {
        released = true;
        send?.();
      };
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      const requestId = req.headers["x-request-id"];
      state.requests.push({ method: req.method ?? "", url: req.url ?? "", body, ...(typeof requestId === "string" ? { requestId } : {}) });
      const url = new URL(req.url ?? "/", "http://upstream");
      switch (state.behaviour) {
        case "hang":
          return;
        case "reset":
          req.socket.destroy();
          return;
        case "error":
          res.writeHead(500, { "content-type": "application/json" }).end('{"code":500,"msg":"boom at 10.0.0.7"}');
          return;
        case "invalid-json":
          res.writeHead(200, { "content-type": "application/json" }).end("<html>not json</html>");
          return;
      }
      const route = state.routes.get(url.pathname);
      if (route === undefined) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"code":404,"msg":"not found","data":null}');
        return;
      }
      const answer = typeof route === "function" ? route(url, body) : { body: { code: 0, msg: "ok", data: route } };
      const send = () =>
        res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...state.headers }).end(JSON.stringify(answer.body));
      const holding = held.get(url.pathname);
      if (holding) holding(send);
      else send();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
