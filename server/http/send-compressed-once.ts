// A body sent once and not kept, compressed in one pass for the client that asked. The compression middleware would
// stream it through zlib, which for the home page costs 0.6 ms of CPU where one pass takes 0.4 (docs/behaviour.md#compression).
import zlib from "node:zlib";
import type { Request, Response } from "express";
import { COMPRESS_THRESHOLD, type CompressionLevels, compressed, takesBr, takesGzip } from "./content-codings.ts";

/** The middleware's brotli quality and zlib's default gzip level: a client gets the bytes it got before. */
const LEVELS: CompressionLevels = { brotliQuality: 4, gzipLevel: zlib.constants.Z_DEFAULT_COMPRESSION };

export async function sendCompressedOnce(req: Request, res: Response, status: number, body: Buffer): Promise<void> {
  const acceptEncoding = req.headers["accept-encoding"];
  const coding = takesBr(acceptEncoding) ? "br" : takesGzip(acceptEncoding) ? "gzip" : undefined;
  // A client whose copy is current gets a 304 from `send`: nothing to compress.
  if (coding === undefined || body.length < COMPRESS_THRESHOLD || (status < 300 && req.fresh)) {
    res.status(status).send(body);
    return;
  }
  const bytes = await compressed(body, coding, LEVELS);
  // Set, so the middleware leaves the body as it is.
  res.setHeader("Content-Encoding", coding);
  res.status(status).send(bytes);
}
