/**
 * The upstream client against real node:http servers on loopback: its bound on what it
 * buffers, its deadline, its connection limit and the bound on requests waiting for one,
 * and its one retry of a GET whose pooled connection the upstream had closed.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createUpstreamClient, type UpstreamClient, UpstreamError } from "../../server/api-proxy/upstream-client.ts";

const servers: http.Server[] = [];
const clients: UpstreamClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function clientFor(
  baseUrl: string,
  options: { timeoutMs?: number; maxBodyBytes?: number; maxSockets?: number; maxQueue?: number; maxQueuedWrites?: number } = {},
) {
  const client = createUpstreamClient({ baseUrl, timeoutMs: options.timeoutMs ?? 2000, ...options });
  clients.push(client);
  return client;
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => (err instanceof UpstreamError ? err.kind : err),
  );

describe("upstream client", () => {
  it("refuses an answer larger than its bound, declared or streamed, and says so", async () => {
    const big = Buffer.alloc(64 * 1024, "x");
    const origin = await serve((req, res) => {
      if (req.url === "/declared") {
        res.setHeader("Content-Length", big.length);
        res.end(big);
      } else {
        // Chunked, no length: the bound must hold while reading.
        res.write(big.subarray(0, 20_000));
        res.write(big.subarray(20_000, 40_000));
        res.end(big.subarray(40_000));
      }
    });
    const client = clientFor(origin, { maxBodyBytes: 32 * 1024 });
    expect(await failureOf(client.request("GET", "/declared"))).toBe("too-large");
    expect(await failureOf(client.request("GET", "/streamed"))).toBe("too-large");
    expect(client.state().lastFailure?.kind).toBe("too-large");
  });

  it("gives up at its deadline when the answer's body never ends", async () => {
    const origin = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"code":0,');
    });
    const client = clientFor(origin, { timeoutMs: 300 });
    expect(await failureOf(client.request("GET", "/hang"))).toBe("timeout");
  });

  it("opens no more connections than its limit, however many requests its queue holds", async () => {
    const sockets = new Set<Socket>();
    let most = 0;
    const origin = await serve((req, res) => {
      sockets.add(req.socket);
      most = Math.max(most, sockets.size);
      setTimeout(() => res.end("{}"), 20);
    });
    const client = clientFor(origin, { maxSockets: 4, maxQueue: 36 });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => client.request("GET", `/item/${i}`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(most).toBe(4);
  });

  it("refuses at once, as busy, a request past its connections and their queue; the others complete once the upstream answers", async () => {
    const held: http.ServerResponse[] = [];
    const origin = await serve((_req, res) => {
      held.push(res);
    });
    const client = clientFor(origin, { maxSockets: 2, maxQueue: 3, maxQueuedWrites: 1, timeoutMs: 60_000 });
    const accepted = Array.from({ length: 5 }, (_, i) => client.request("GET", `/held/${i}`));
    // Refused while the upstream still holds every request it got: failing fast, not at the deadline.
    while (held.length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(await failureOf(client.request("GET", "/one-too-many"))).toBe("busy");
    // Writes wait in an allowance of their own: the full read queue refuses none of them, their own bound does.
    for (const id of [1, 2, 3]) accepted.push(client.request("PUT", `/reader/${id}`, Buffer.from("{}")));
    expect(await failureOf(client.request("PUT", "/reader/4", Buffer.from("{}")))).toBe("busy");
    expect(held).toHaveLength(2);
    while (held.length < 8) {
      for (const res of held.filter((r) => !r.writableEnded)) res.end('{"code":0}');
      await new Promise((r) => setTimeout(r, 5));
    }
    for (const res of held) if (!res.writableEnded) res.end('{"code":0}');
    expect((await Promise.all(accepted)).map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    // Room again once they are done.
    const next = client.request("GET", "/after");
    while (held.length < 9) await new Promise((r) => setTimeout(r, 5));
    held[8]?.end('{"code":0}');
    expect((await next).status).toBe(200);
  });

  it("sends a GET again, once, when its pooled connection was closed under it; never a PUT", async () => {
    const seen: string[] = [];
    const origin = await serve((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      // The second request of a kept-alive connection finds it closed, as when the upstream's idle timer just fired.
      const served = (req.socket as Socket & { served?: number }).served ?? 0;
      (req.socket as Socket & { served?: number }).served = served + 1;
      if (served === 1) req.socket.destroy();
      else res.end('{"code":0}');
    });
    const client = clientFor(origin, { maxSockets: 1 });
    expect((await client.request("GET", "/first")).status).toBe(200);
    expect((await client.request("GET", "/second")).status).toBe(200);
    expect(seen).toEqual(["GET /first", "GET /second", "GET /second"]);

    expect((await client.request("GET", "/third")).status).toBe(200);
    expect(await failureOf(client.request("PUT", "/reader", Buffer.from("{}")))).toBe("network");
    expect(seen.filter((s) => s.startsWith("PUT"))).toHaveLength(1);
  });
});
