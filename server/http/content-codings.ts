// Content codings: which ones a client's Accept-Encoding takes (named, and not refused with q=0), and where
// compressing pays and where it moves off the event loop (docs/behaviour.md#compression).
import { promisify } from "node:util";
import zlib from "node:zlib";

/** Whether the header names `coding` with a quality above 0 (RFC 9110 12.5.3: names are case-insensitive, q=0 refuses). */
function takes(acceptEncoding: string | undefined, coding: string): boolean {
  if (!acceptEncoding) return false;
  for (const entry of acceptEncoding.split(",")) {
    const [name = "", ...params] = entry.split(";");
    if (name.trim().toLowerCase() !== coding) continue;
    const quality = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(param)?.[1]).find((value) => value !== undefined);
    return quality === undefined || Number(quality) > 0;
  }
  return false;
}

export const takesBr = (acceptEncoding: string | undefined) => takes(acceptEncoding, "br");
export const takesGzip = (acceptEncoding: string | undefined) => takes(acceptEncoding, "gzip");

/** Smaller bodies go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024;
/** Larger bodies are compressed in the thread pool, off the event loop. */
export const COMPRESS_IN_TURN_MAX = 256 * 1024;

export const gzipInPool = promisify(zlib.gzip);
export const brotliInPool = promisify(zlib.brotliCompress);
