// Content codings: which ones a client's Accept-Encoding takes (named, and not refused with q=0), and where
// compressing pays and where it moves off the event loop (docs/behaviour.md#compression).
import { promisify } from "node:util";
import zlib from "node:zlib";

export const takesBr = (acceptEncoding: string | undefined) =>
  acceptEncoding !== undefined && /\bbr\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding);
export const takesGzip = (acceptEncoding: string | undefined) =>
  acceptEncoding !== undefined && /\bgzip\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding);

/** Smaller bodies go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024;
/** Larger bodies are compressed in the thread pool, off the event loop. */
export const COMPRESS_IN_TURN_MAX = 256 * 1024;

export const gzipInPool = promisify(zlib.gzip);
export const brotliInPool = promisify(zlib.brotliCompress);
