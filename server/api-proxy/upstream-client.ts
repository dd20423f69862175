// The one HTTP client to the upstream: a keep-alive pool, a deadline per request, bounds on what it buffers and
// on what may wait, past which a request fails at once (docs/behaviour.md#upstream-failures, decision 0001).
import http from "node:http";
import https from "node:https";

export interface UpstreamResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

type UpstreamFailure = "timeout" | "network" | "too-large" | "busy";

export class UpstreamError extends Error {
  readonly kind: UpstreamFailure;

  constructor(kind: UpstreamFailure, message: string) {
    super(message);
    this.kind = kind;
  }
}

interface UpstreamState {
  requests: number;
  failures: number;
  lastFailure?: { kind: UpstreamFailure; at: string };
  lastSuccessAt?: string;
}

interface FetchOptions {
  maxBodyBytes: number;
  headers?: http.OutgoingHttpHeaders;
}

export interface UpstreamOutcome {
  method: "GET" | "PUT";
  path: string;
  seconds: number;
  status?: number;
  failure?: UpstreamFailure;
}

export interface UpstreamClient {
  /** `requestId` goes out as X-Request-Id, so the upstream's logs name the request behind it. */
  request(method: "GET" | "PUT", path: string, body?: Buffer, requestId?: string): Promise<UpstreamResponse>;
  /** Any origin (the caller decides which are allowed); redirects are answered as they are, never followed. */
  fetch(url: URL, options: FetchOptions): Promise<UpstreamResponse>;
  state(): UpstreamState;
  close(): void;
}

interface UpstreamOptions {
  baseUrl: string;
  timeoutMs: number;
  maxBodyBytes?: number;
  maxSockets?: number;
  /** GETs that may wait for a free connection when all `maxSockets` are busy. */
  maxQueue?: number;
  /** PUTs that may wait likewise, counted apart from the GETs. */
  maxQueuedWrites?: number;
  onOutcome?: (outcome: UpstreamOutcome) => void;
}

interface Target {
  url: URL;
  path: string;
  headers: http.OutgoingHttpHeaders;
  maxBody: number;
}

export function createUpstreamClient(options: UpstreamOptions): UpstreamClient {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, "");
  const maxSockets = options.maxSockets ?? 64;
  const maxPending = {
    GET: maxSockets + (options.maxQueue ?? maxSockets * 4),
    PUT: maxSockets + (options.maxQueuedWrites ?? maxSockets * 32),
  };
  const agentOptions = { keepAlive: true, maxSockets, maxFreeSockets: 16, scheduling: "lifo" as const };
  const agents = { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) };
  const maxBody = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const state: UpstreamState = { requests: 0, failures: 0 };
  const pending = { GET: 0, PUT: 0 };

  function fail(kind: UpstreamFailure, message: string): UpstreamError {
    state.failures++;
    state.lastFailure = { kind, at: new Date().toISOString() };
    return new UpstreamError(kind, message);
  }

  const { onOutcome } = options;
  const observed = (method: "GET" | "PUT", path: string, sending: Promise<UpstreamResponse>): Promise<UpstreamResponse> => {
    if (!onOutcome) return sending;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    return sending.then(
      (res) => {
        onOutcome({ method, path, seconds: seconds(), status: res.status });
        return res;
      },
      (err: unknown) => {
        onOutcome({ method, path, seconds: seconds(), failure: err instanceof UpstreamError ? err.kind : "network" });
        throw err;
      },
    );
  };

  function request(method: "GET" | "PUT", path: string, body?: Buffer, requestId?: string): Promise<UpstreamResponse> {
    if (pending[method] >= maxPending[method]) {
      return observed(method, path, Promise.reject(fail("busy", "upstream connections and their queue are full")));
    }
    pending[method]++;
    const headers: http.OutgoingHttpHeaders = { accept: "application/json" };
    if (requestId) headers["x-request-id"] = requestId;
    if (body) {
      headers["content-type"] = "application/json";
      headers["content-length"] = body.length;
    }
    const target = { url: base, path: basePath + path, headers, maxBody };
    return observed(method, path, send(method, target, body, false)).finally(() => pending[method]--);
  }

  function fetch(url: URL, fetchOptions: FetchOptions): Promise<UpstreamResponse> {
    if (pending.GET >= maxPending.GET) return Promise.reject(fail("busy", "upstream connections and their queue are full"));
    pending.GET++;
    const target = { url, path: url.pathname + url.search, headers: fetchOptions.headers ?? {}, maxBody: fetchOptions.maxBodyBytes };
    return send("GET", target, undefined, false).finally(() => pending.GET--);
  }

  function send(method: "GET" | "PUT", target: Target, body: Buffer | undefined, retried: boolean): Promise<UpstreamResponse> {
    state.requests++;
    const { url, maxBody } = target;
    const secureTarget = url.protocol === "https:";
    return new Promise((resolve, reject) => {
      const req = (secureTarget ? https : http).request({
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port || undefined,
        method,
        path: target.path,
        headers: target.headers,
        agent: agents[secureTarget ? "https:" : "http:"],
      });
      let settled = false;
      const settle = (error: UpstreamError | undefined, value?: UpstreamResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(value as UpstreamResponse);
      };
      const timer = setTimeout(() => {
        settle(fail("timeout", `upstream did not answer within ${options.timeoutMs} ms`));
        req.destroy();
      }, options.timeoutMs);
      req.on("error", (err: NodeJS.ErrnoException) => {
        // A pooled connection the upstream closed just as we reused it: a GET is safe to send again, once.
        if (!settled && !retried && method === "GET" && req.reusedSocket && (err.code === "ECONNRESET" || err.code === "EPIPE")) {
          settled = true;
          clearTimeout(timer);
          send(method, target, body, true).then(resolve, reject);
          return;
        }
        settle(fail("network", `upstream request failed: ${err.message}`));
      });
      req.on("response", (res) => {
        const declared = Number(res.headers["content-length"]);
        if (declared > maxBody) {
          settle(fail("too-large", "upstream answer is too large"));
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBody) {
            settle(fail("too-large", "upstream answer is too large"));
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on("error", (err) => settle(fail("network", `upstream answer broke off: ${err.message}`)));
        res.on("end", () => {
          state.lastSuccessAt = new Date().toISOString();
          settle(undefined, { status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks, size) });
        });
      });
      req.end(body);
    });
  }

  return {
    request,
    state: () => ({ ...state }),
    fetch,
    close: () => {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
