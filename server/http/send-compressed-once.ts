// A body sent once and not kept, compressed in one pass for the client that asked. The compression middleware would
// stream it through zlib, which for the home page costs 0.6 ms of CPU where one pass takes 0.4 (docs/behaviour.md#compression).
import zlib from "node:zlib";
import type { Request, Response } from "express";
import {
  brotliInPool,
  brotliOptionsOf,
  COMPRESS_IN_TURN_MAX,
  COMPRESS_THRESHOLD,
  gzipInPool,
  takesBr,
  takesGzip,
} from "./content-codings.ts";

/** The middleware's brotli quality (zlib's default gzip level is its own): a client gets the bytes it got before. */
const BROTLI_QUALITY = 4;

function compressed(body: Buffer, coding: "br" | "gzip"): Buffer | Promise<Buffer> {
  const inTurn = body.length <= COMPRESS_IN_TURN_MAX;
  if (coding === "br") {
    const options = brotliOptionsOf(BROTLI_QUALITY, body.length);
    return inTurn ? zlib.brotliCompressSync(body, options) : brotliInPool(body, options);
  }
  return inTurn ? zlib.gzipSync(body) : gzipInPool(body);
}

export async function sendCompressedOnce(req: Request, res: Response, status: number, body: Buffer): Promise<void> {
  const acceptEncoding = req.headers["accept-encoding"];
  const coding = takesBr(acceptEncoding) ? "br" : takesGzip(acceptEncoding) ? "gzip" : undefined;
  // A client whose copy is current gets a 304 from `send`: nothing to compress.
  if (coding === undefined || body.length < COMPRESS_THRESHOLD || (status < 300 && req.fresh)) {
    res.status(status).send(body);
    return;
  }
  const bytes = await compressed(body, coding);
  // Set, so the middleware leaves the body as it is.
  res.setHeader("Content-Encoding", coding);
  res.status(status).send(bytes);
}
