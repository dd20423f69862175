// Answers kept ready to send: each content coding compressed once, the headers as flat lists (those answers have
// alike shared by them all), so a hit is a lookup and one `writeHead` (docs/behaviour.md#hot-path, #compression).
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import {
  COMPRESS_IN_TURN_MAX,
  COMPRESS_THRESHOLD,
  type CompressionLevels,
  compressed,
  compressedInTurn,
  takesBr,
  takesGzip,
} from "../http/content-codings.ts";
import { matchesIfNoneMatch } from "../http/etag-match.ts";

interface Variant {
  body: Buffer;
  /** Name, value, name, value...: the answer's own headers (`shared` goes before them), but the per-response ones. */
  headers: string[];
}

type CompressionEffort = "full" | "fast";

/**
 * Codings not made yet: each is made the first time a client takes it, in the bytes set aside for it when the
 * answer was kept. Answers read only to render pages, and pages only browsers read, are never compressed twice.
 */
interface Later {
  effort: CompressionEffort;
  /** The answer's own headers but the coding's and the length. */
  base: string[];
  /** Bytes counted in `bytes` for the codings still to make. */
  reserved: number;
}

export interface PreparedAnswer {
  status: number;
  etag: string;
  /** The headers answers of a kind carry alike, one list for all of them; each variant's own follow. */
  shared: readonly string[];
  /** Let go by a page kept compressed (`keepCompressedOnly`); made again from a kept coding when a client takes none. */
  identity?: Variant;
  gzip?: Variant;
  br?: Variant;
  later?: Later;
  notModified: string[];
  bytes: number;
}

/**
 * What the codings still to make may take, as a share of the body: HTML and JSON come to about a fifth of it in
 * gzip and less in brotli. A body that compresses worse is sent as it is once a coding has not fitted.
 */
const RESERVED_SHARE: Record<CompressionEffort, number> = { full: 0.5, fast: 0.35 };

/** Dynamic content's levels (the idle recompressor takes brotli to 11 for what is read again); gzip 1 for the fast. */
const LEVELS: Record<CompressionEffort, CompressionLevels> = {
  full: { brotliQuality: 5, gzipLevel: 6 },
  fast: { brotliQuality: 5, gzipLevel: 1 },
};

/** Named per key (docs/behaviour.md#purging): every other header is the same for many answers. */
const PER_ANSWER = new Set(["cache-tag", "surrogate-key"]);
/** Distinct shared lists kept: a handful in practice (API answers, pages per policy, documents). */
const SHARED_LISTS_MAX = 256;
const sharedLists = new Map<string, readonly string[]>();

/**
 * One list for all the answers whose headers are alike: kept per answer, the same thirty-odd names and values took
 * about 0.6 kB of the heap for each of the API cache's entries.
 */
function sharedListOf(flat: string[]): readonly string[] {
  const key = flat.join("\n");
  const known = sharedLists.get(key);
  if (known) return known;
  if (sharedLists.size >= SHARED_LISTS_MAX) sharedLists.delete(sharedLists.keys().next().value as string);
  sharedLists.set(key, flat);
  return flat;
}

const variantOf = (base: string[], bytes: Buffer, coding?: string): Variant => ({
  body: ownBytes(bytes),
  headers: [...base, ...(coding ? ["Content-Encoding", coding] : []), "Content-Length", String(bytes.length)],
});

/** The body as it is: the kept one, or decoded from a kept coding (not kept again). */
export function identityBodyOf(answer: PreparedAnswer): Buffer {
  if (answer.identity) return answer.identity.body;
  if (answer.br) return zlib.brotliDecompressSync(answer.br.body);
  return zlib.gunzipSync((answer.gzip as Variant).body);
}

/** Its bytes were counted when the answer was kept: made again, it is kept again. */
function identityOf(answer: PreparedAnswer): Variant {
  answer.identity ??= variantOf(answer.notModified, identityBodyOf(answer));
  return answer.identity;
}

/**
 * Lets the body as it is go once a coding of it is kept: browsers and crawlers take gzip or brotli, so a page a
 * crawler walked to once holds a sixth of the memory while its count in the cache's bound stays the same.
 */
export function keepCompressedOnly(answer: PreparedAnswer): void {
  if (answer.br || answer.gzip) answer.identity = undefined;
}

/** The answer in `coding`, made now if it is still to make; kept when it fits the bytes set aside. */
function codedOf(answer: PreparedAnswer, coding: "gzip" | "br"): Variant | undefined {
  const made = answer[coding];
  if (made || !answer.later || (coding === "br" && answer.later.effort === "fast")) return made;
  const { effort, base } = answer.later;
  const body = identityBodyOf(answer);
  const bytes = compressedInTurn(body, coding, LEVELS[effort]);
  const variant = variantOf(base, bytes, coding);
  if (bytes.length <= answer.later.reserved) {
    answer[coding] = variant;
    answer.later.reserved -= bytes.length;
    if (answer.gzip && (answer.br || effort === "fast")) answer.later = undefined;
  } else answer.later = undefined;
  return variant;
}

function variantFor(answer: PreparedAnswer, acceptEncoding: string | undefined): Variant {
  // A brotli form kept while the gzip one did not fit is still taken.
  if (acceptEncoding && (answer.gzip || answer.br || answer.later)) {
    const coded =
      (takesBr(acceptEncoding) ? codedOf(answer, "br") : undefined) ?? (takesGzip(acceptEncoding) ? codedOf(answer, "gzip") : undefined);
    if (coded) return coded;
  }
  return identityOf(answer);
}

/** Makes now the coding a client with this `Accept-Encoding` would be sent: a miss's own requester, say. */
export function compressFor(answer: PreparedAnswer, acceptEncoding: string | undefined): void {
  variantFor(answer, acceptEncoding);
}

/** Node cuts small Buffers out of shared 8 kB slabs: a kept slice would hold the whole slab, which no bound counts. */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/**
 * `headers` must not hold Content-Length, Content-Encoding or ETag. Codings are made when first asked for
 * (`Later`), but a body too large to compress on the event loop is compressed in the pool now, in both.
 * `reservedShare`: the bytes set aside for the codings still to make, as a share of the body, for text that
 * compresses worse than HTML and JSON do (a feed in Chinese: about a third in each coding).
 */
export async function prepareAnswer(
  status: number,
  body: Buffer,
  etag: string,
  headers: readonly (readonly [string, string])[],
  effort: CompressionEffort = "full",
  reservedShare = RESERVED_SHARE[effort],
): Promise<PreparedAnswer> {
  const alike = headers.filter(([name]) => !PER_ANSWER.has(name.toLowerCase()));
  const shared = sharedListOf(alike.flat());
  const base = [...headers.filter((header) => !alike.includes(header)).flat(), "ETag", etag];
  const prepared: PreparedAnswer = { status, etag, shared, identity: variantOf(base, body), notModified: base, bytes: body.length };
  if (body.length < COMPRESS_THRESHOLD) return prepared;
  if (body.length <= COMPRESS_IN_TURN_MAX) {
    const reserved = Math.ceil(body.length * reservedShare);
    return { ...prepared, later: { effort, base, reserved }, bytes: body.length + reserved };
  }
  if (effort === "fast") {
    const gz = await compressed(body, "gzip", LEVELS.fast);
    return { ...prepared, gzip: variantOf(base, gz, "gzip"), bytes: body.length + gz.length };
  }
  const [gz, br] = await Promise.all([compressed(body, "gzip", LEVELS.full), compressed(body, "br", LEVELS.full)]);
  return { ...prepared, gzip: variantOf(base, gz, "gzip"), br: variantOf(base, br, "br"), bytes: body.length + gz.length + br.length };
}

/** Headers the response already carries stay unless the answer names them too. */
export function sendPrepared(req: IncomingMessage, res: ServerResponse, answer: PreparedAnswer, perResponse: string[]): void {
  if (answer.status === 200 && matchesIfNoneMatch(req.headers["if-none-match"], answer.etag)) {
    res.writeHead(304, answer.shared.concat(answer.notModified, perResponse));
    res.end();
    return;
  }
  const variant = variantFor(answer, req.headers["accept-encoding"]);
  res.writeHead(answer.status, answer.shared.concat(variant.headers, perResponse));
  res.end(req.method === "HEAD" ? undefined : variant.body);
}
