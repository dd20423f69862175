/**
 * The stand-in upstream the reliability run controls: the real embedded content API
 * (server/content/) on a SQLite file of its own, loaded with a site (the demo site, or
 * one seeded with hostile content), behind a node:http front whose behaviour can be
 * switched at any moment: answer normally, be down (port closed, or connections reset),
 * answer 500, hang, answer invalid JSON or an HTML page, or answer slowly. Given
 * `reshape`, every successful JSON answer's payload is rewritten by it on the way out
 * (the shapes a database cannot hold: an array or object where a string belongs).
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";
import { startContentApi } from "../server/content/api.ts";
import { openContentDb } from "../server/content/db.ts";
import type { SiteFile } from "../server/content/site-file.ts";
import { importSite } from "../server/content/site-io.ts";
import { getClassifyMenus } from "../server/content/store.ts";

export type UpstreamMode = "ok" | "down" | "reset" | "error" | "hang" | "invalid-json" | "html" | "slow";

export interface RecordedRequest {
  method: string;
  url: string;
  body: string;
  /** The behaviour the request met; "cut" when it was being answered normally and a switch to "down" or "reset" cut it off. */
  mode: UpstreamMode | "cut";
}

export interface ControlledUpstream {
  url: string;
  /** The site's classify menus as PORTAL_CLASSIFY, so pages render as on the embedded site. */
  classifyJson: string;
  mode(): UpstreamMode;
  /** Switches behaviour; "down" closes the port, and leaving it opens the same port again. */
  setMode(mode: UpstreamMode): Promise<void>;
  /** Delay of the "slow" mode. */
  slowMs: number;
  /** Every request received since the last `clearRecords`, when `record` is on. */
  requests: RecordedRequest[];
  record: boolean;
  /** Requests received in total (every mode), for figures. */
  received(): number;
  /** Requests the "slow" mode is holding now: each one a request the server has in flight. */
  held(): number;
  clearRecords(): void;
  close(): Promise<void>;
}

const HTML_PAGE = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>";

export interface ControlledUpstreamOptions {
  /** Rewrites the payload (`data`) of every successful JSON answer. */
  reshape?: (data: unknown) => unknown;
}

export async function startControlledUpstream(
  site: SiteFile,
  workDir: string,
  { reshape }: ControlledUpstreamOptions = {},
): Promise<ControlledUpstream> {
  const content = await openContentDb(`sqlite:${path.join(workDir, `upstream-${process.hrtime.bigint()}.db`)}`);
  await importSite(content, site);
  const classifyJson = JSON.stringify(await getClassifyMenus(content));
  const api = await startContentApi(content);
  const target = new URL(api.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const sockets = new Set<Socket>();
  let mode: UpstreamMode = "ok";
  let received = 0;
  let held = 0;

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, retried = false) => {
    const headers = { ...req.headers };
    delete headers.host;
    if (reshape) delete headers["accept-encoding"];
    const out = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      if (!reshape || answer.statusCode !== 200 || !String(answer.headers["content-type"]).includes("json")) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        const envelope = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        const body = JSON.stringify(envelope?.code === 0 ? { ...envelope, data: reshape(envelope.data) } : envelope);
        const { "content-length": _length, etag: _etag, ...kept } = answer.headers;
        res.writeHead(200, kept).end(body);
      });
    });
    out.on("error", () => {
      // A pooled connection the content API closed as idle just as it was reused: once more, on a new one.
      if (out.reusedSocket && !retried && !res.headersSent) {
        forward(req, res, body, true);
        return;
      }
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end('{"code":502,"msg":"content API failed"}');
    });
    out.end(body);
  };

  const state: ControlledUpstream = {
    url: "",
    classifyJson,
    slowMs: 300,
    requests: [],
    record: false,
    mode: () => mode,
    received: () => received,
    held: () => held,
    clearRecords: () => {
      state.requests = [];
    },
    setMode: async (next) => {
      if (next === mode) return;
      const wasDown = mode === "down";
      mode = next;
      if (next === "down") {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        });
      } else if (wasDown) {
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(port, "127.0.0.1", () => {
            server.off("error", reject);
            resolve();
          });
        });
      }
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
      await api.close();
      await content.close();
    },
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received++;
      const body = Buffer.concat(chunks);
      if (state.record) {
        const record: RecordedRequest = { method: req.method ?? "", url: req.url ?? "", body: body.toString(), mode };
        state.requests.push(record);
        if (mode === "ok" || mode === "slow") {
          res.on("close", () => {
            if (!res.writableFinished) record.mode = "cut";
          });
        }
      }
      switch (mode) {
        case "hang":
          return;
        case "reset":
        case "down":
          req.socket.destroy();
          return;
        case "error":
          res.writeHead(500, { "content-type": "application/json" }).end('{"code":500,"msg":"database at 10.0.0.7:5432 is gone"}');
          return;
        case "invalid-json":
          res.writeHead(200, { "content-type": "application/json" }).end('{"code":0,"msg":"ok","data":{"pageDataList":[{"id":1,');
          return;
        case "html":
          res.writeHead(200, { "content-type": "text/html" }).end(HTML_PAGE);
          return;
        case "slow":
          held++;
          setTimeout(() => {
            held--;
            forward(req, res, body);
          }, state.slowMs);
          return;
        default:
          forward(req, res, body);
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    if (mode === "reset" || mode === "down") socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  return state;
}
