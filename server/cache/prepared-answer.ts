// Answers kept ready to send: each content coding compressed once, the headers as one flat list, so a hit
// is a lookup and one `writeHead` (docs/behaviour.md#hot-path, #compression).
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { matchesIfNoneMatch } from "../http/etag-match.ts";

const gzipInPool = promisify(zlib.gzip);
const brotliInPool = promisify(zlib.brotliCompress);

const COMPRESS_IN_TURN_MAX = 256 * 1024;

const gzip = async (body: Buffer, options: zlib.ZlibOptions) =>
  body.length <= COMPRESS_IN_TURN_MAX ? zlib.gzipSync(body, options) : gzipInPool(body, options);
const brotli = async (body: Buffer, options: zlib.BrotliOptions) =>
  body.length <= COMPRESS_IN_TURN_MAX ? zlib.brotliCompressSync(body, options) : brotliInPool(body, options);

/** Smaller bodies go out as they are: compressing them saves less than it costs. */
const COMPRESS_THRESHOLD = 1024;

interface Variant {
  body: Buffer;
  /** Name, value, name, value...: every header of the answer but the per-response ones. */
  headers: string[];
}

export interface PreparedAnswer {
  status: number;
  etag: string;
  identity: Variant;
  gzip?: Variant;
  br?: Variant;
  notModified: string[];
  bytes: number;
}

function variantFor(answer: PreparedAnswer, acceptEncoding: string | undefined): Variant {
  if (acceptEncoding && answer.gzip) {
    if (answer.br && /\bbr\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding)) return answer.br;
    if (/\bgzip\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding)) return answer.gzip;
  }
  return answer.identity;
}

/** Node cuts small Buffers out of shared 8 kB slabs: a kept slice would hold the whole slab, which no bound counts. */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

type CompressionEffort = "full" | "fast";

/** `headers` must not hold Content-Length, Content-Encoding or ETag. */
export async function prepareAnswer(
  status: number,
  body: Buffer,
  etag: string,
  headers: readonly (readonly [string, string])[],
  effort: CompressionEffort = "full",
): Promise<PreparedAnswer> {
  const base = [...headers.flat(), "ETag", etag];
  const variant = (bytes: Buffer, coding?: string): Variant => ({
    body: ownBytes(bytes),
    headers: [...base, ...(coding ? ["Content-Encoding", coding] : []), "Content-Length", String(bytes.length)],
  });
  const prepared: PreparedAnswer = { status, etag, identity: variant(body), notModified: base, bytes: body.length };
  if (body.length < COMPRESS_THRESHOLD) return prepared;
  if (effort === "fast") {
    const gz = await gzip(body, { level: 1 });
    return { ...prepared, gzip: variant(gz, "gzip"), bytes: body.length + gz.length };
  }
  const [gz, br] = await Promise.all([
    gzip(body, { level: 6 }),
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  ]);
  return { ...prepared, gzip: variant(gz, "gzip"), br: variant(br, "br"), bytes: body.length + gz.length + br.length };
}

/** Headers the response already carries stay unless the answer names them too. */
export function sendPrepared(req: IncomingMessage, res: ServerResponse, answer: PreparedAnswer, perResponse: string[]): void {
  if (answer.status === 200 && matchesIfNoneMatch(req.headers["if-none-match"], answer.etag)) {
    res.writeHead(304, answer.notModified.concat(perResponse));
    res.end();
    return;
  }
  const variant = variantFor(answer, req.headers["accept-encoding"]);
  res.writeHead(answer.status, variant.headers.concat(perResponse));
  res.end(req.method === "HEAD" ? undefined : variant.body);
}
