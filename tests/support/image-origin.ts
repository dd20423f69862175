/**
 * A real image origin on 127.0.0.1 for the image endpoint's tests: it answers each path
 * with a handler given the raw request and response (so a test can send real image bytes,
 * a lying Content-Length, an endless stream or a redirect), and counts what it was asked.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ImageHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface ImageOrigin {
  url: string;
  routes: Map<string, ImageHandler>;
  /** Requests received for `path` (all paths when absent). */
  count(path?: string): number;
  close(): Promise<void>;
}

/** A handler answering `body` as `type`, with an ETag, and 304 to a request that already has it. */
export function serveBytes(body: Buffer, type: string, etag = '"v1"'): ImageHandler {
  return (req, res) => {
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { "content-type": type, "content-length": body.length, etag }).end(body);
  };
}

export async function startImageOrigin(routes: Record<string, ImageHandler> = {}): Promise<ImageOrigin> {
  const seen: string[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const origin: ImageOrigin = {
    url: "",
    routes: new Map(Object.entries(routes)),
    count: (path) => seen.filter((p) => path === undefined || p === path).length,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    seen.push(path);
    const handler = origin.routes.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404, { "content-type": "text/plain" }).end("no such image at 10.0.0.7");
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return origin;
}
