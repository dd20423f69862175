// Content codings: which ones a client's Accept-Encoding takes (named or matched by `*`, and not refused with q=0),
// compressing them, and where compressing pays and where it moves off the event loop (docs/behaviour.md#compression).
import { promisify } from "node:util";
import zlib from "node:zlib";

/** An entry's weight: its `q` parameter, 1 without one. */
function weightOf(params: string[]): number {
  const quality = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(param)?.[1]).find((value) => value !== undefined);
  return quality === undefined ? 1 : Number(quality);
}

/**
 * Whether the header takes `coding` (RFC 9110 12.5.3): named with a weight above 0, or not named and `*` is, with a
 * weight above 0. Names are case-insensitive; q=0 refuses.
 */
function takes(acceptEncoding: string | undefined, coding: string): boolean {
  if (!acceptEncoding) return false;
  let anyWeight = 0;
  for (const entry of acceptEncoding.split(",")) {
    const [name = "", ...params] = entry.split(";");
    const named = name.trim().toLowerCase();
    if (named === coding) return weightOf(params) > 0;
    if (named === "*") anyWeight = weightOf(params);
  }
  return anyWeight > 0;
}

export const takesBr = (acceptEncoding: string | undefined) => takes(acceptEncoding, "br");
export const takesGzip = (acceptEncoding: string | undefined) => takes(acceptEncoding, "gzip");

/** Smaller bodies go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024;
/** Larger bodies are compressed in the thread pool, off the event loop. */
export const COMPRESS_IN_TURN_MAX = 256 * 1024;

/** Brotli at `quality` for a body of `length` bytes: the size hint lets the encoder size its tables to the body. */
export const brotliOptionsOf = (quality: number, length: number): zlib.BrotliOptions => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: length },
});

const gzipInPool = promisify(zlib.gzip);
export const brotliInPool = promisify(zlib.brotliCompress);

export type Coding = "br" | "gzip";

export interface CompressionLevels {
  brotliQuality: number;
  gzipLevel: number;
}

/** `body` in `coding`, now, in the request's own turn: for bodies up to COMPRESS_IN_TURN_MAX. */
export function compressedInTurn(body: Buffer, coding: Coding, levels: CompressionLevels): Buffer {
  return coding === "br"
    ? zlib.brotliCompressSync(body, brotliOptionsOf(levels.brotliQuality, body.length))
    : zlib.gzipSync(body, { level: levels.gzipLevel });
}

/** `body` in `coding`: in the request's own turn up to COMPRESS_IN_TURN_MAX, in libuv's thread pool above it. */
export function compressed(body: Buffer, coding: Coding, levels: CompressionLevels): Buffer | Promise<Buffer> {
  if (body.length <= COMPRESS_IN_TURN_MAX) return compressedInTurn(body, coding, levels);
  return coding === "br"
    ? brotliInPool(body, brotliOptionsOf(levels.brotliQuality, body.length))
    : gzipInPool(body, { level: levels.gzipLevel });
}
