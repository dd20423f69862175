/**
 * Search engines' receiving ends, real and on loopback, speaking their protocols and recording
 * what arrives: IndexNow (a JSON POST of { host, key, keyLocation, urlList }) and Baidu's
 * 普通收录 (a text/plain POST of one URL a line to /urls?site=&token=, answered
 * { success, remain }, or { error: 400, message: "over quota" } once the day's quota is spent).
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface EngineCall {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType: string;
  /** IndexNow: the JSON body; Baidu: the lines. */
  urls: string[];
  json?: Record<string, unknown>;
  /** What the receiver answered. */
  status: number;
}

export interface EngineReceiver {
  url: string;
  calls: EngineCall[];
  /** false: answers 503 (IndexNow) or 500 (Baidu), as an engine that is down does. */
  up: boolean;
  /** Set: IndexNow answers every well-formed request with this status (422: addresses not on the key's host). */
  refuseWith?: number;
  /** Every URL in a call it accepted. */
  accepted(): string[];
  /** Resolves once `until` holds of the calls received (checked at each call). */
  waitFor(until: (calls: EngineCall[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

export interface BaiduReceiver extends EngineReceiver {
  /** URLs it takes before its quota is spent. */
  quota: number;
  /** Set: a batch larger than what remains of the quota is refused whole ("over quota"), nothing taken. */
  refusesBatchOverQuota?: boolean;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function receiver<R extends EngineReceiver>(
  path: string,
  extra: Omit<R, keyof EngineReceiver>,
  answer: (self: R, call: EngineCall, body: string) => { status: number; body: unknown },
): Promise<R> {
  const waiting: { until: () => boolean; resolve: () => void }[] = [];
  const self = {
    url: "",
    calls: [] as EngineCall[],
    up: true,
    ...extra,
    accepted: () => self.calls.filter((call) => call.status === 200).flatMap((call) => call.urls),
    waitFor: (until: (calls: EngineCall[]) => boolean) =>
      until(self.calls) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ until: () => until(self.calls), resolve })),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  } as unknown as R;
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? "/", "http://receiver");
    const call: EngineCall = {
      method: req.method ?? "",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      contentType: String(req.headers["content-type"] ?? ""),
      urls: [],
      status: 0,
    };
    const answered = url.pathname === path ? answer(self, call, body) : { status: 404, body: { error: 404, message: "not found" } };
    call.status = answered.status;
    self.calls.push(call);
    res.writeHead(answered.status, { "content-type": "application/json" }).end(JSON.stringify(answered.body));
    for (const w of waiting.splice(0)) {
      if (w.until()) w.resolve();
      else waiting.push(w);
    }
  });
  server.listen(0, "127.0.0.1");
  return once(server, "listening").then(() => {
    self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
    return self;
  });
}

/** Checks what IndexNow checks of a request's form; the key's validity is the caller's to assert. */
export function startIndexNowReceiver(): Promise<EngineReceiver> {
  return receiver<EngineReceiver>("/indexnow", {}, (self, call, body) => {
    if (call.method !== "POST" || !call.contentType.startsWith("application/json")) return { status: 400, body: "bad request" };
    try {
      call.json = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return { status: 400, body: "bad request" };
    }
    call.urls = Array.isArray(call.json.urlList) ? (call.json.urlList as string[]) : [];
    if (call.urls.length === 0 || call.urls.length > 10_000) return { status: 400, body: "bad request" };
    if (self.refuseWith) return { status: self.refuseWith, body: "refused" };
    return self.up ? { status: 200, body: "" } : { status: 503, body: "unavailable" };
  });
}

/** Checks the token and site it is given, and counts the day's quota down. */
export function startBaiduReceiver(expected: { site: string; token: string }, quota = 1_000_000): Promise<BaiduReceiver> {
  return receiver<BaiduReceiver>("/urls", { quota }, (self, call, body) => {
    call.urls = body.split("\n").filter(Boolean);
    if (call.method !== "POST" || !call.contentType.startsWith("text/plain"))
      return { status: 400, body: { error: 400, message: "empty content" } };
    if (call.query.token !== expected.token) return { status: 401, body: { error: 401, message: "token is not valid" } };
    if (call.query.site !== expected.site) return { status: 400, body: { error: 400, message: "site error" } };
    if (call.urls.length > 2000) return { status: 400, body: { error: 400, message: "only 2000 urls are allowed once" } };
    if (!self.up) return { status: 500, body: { error: 500, message: "internal error" } };
    if (self.quota <= 0 || (self.refusesBatchOverQuota && call.urls.length > self.quota))
      return { status: 400, body: { error: 400, message: "over quota" } };
    const success = Math.min(self.quota, call.urls.length);
    self.quota -= success;
    return { status: 200, body: { remain: self.quota, success, not_same_site: [], not_valid: [] } };
  });
}
