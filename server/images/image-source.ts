/**
 * Reads an image source, from the embedded media or through a client of the origin's own, apart
 * from the content API's connections (docs/behaviour.md#images, "Sources").
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { createUpstreamClient, type UpstreamClient, UpstreamError } from "../api-proxy/upstream-client.ts";
import { HttpError } from "../http/errors.ts";
import type { ImageSource } from "./image-request.ts";

export interface Validator {
  etag?: string;
  lastModified?: string;
}

/** `embedded`: read from the embedded media folder, the site's own files. */
type SourceAnswer = { changed: true; bytes: Buffer; validator: Validator; embedded?: boolean } | { changed: false };

interface ImageSourceOptions {
  fetchers: ImageFetchers;
  /** Site paths outside the media folder are read from it. */
  upstreamOrigin: string;
  mediaDir?: string;
  maxBytes: number;
}

export type ReadSource = (source: ImageSource, known?: Validator) => Promise<SourceAnswer>;

const MEDIA_PREFIX = "/portal/media/";
const MAX_REDIRECTS = 3;

const IMAGE_SOCKETS_PER_ORIGIN = 8;
const IMAGE_WAITING_PER_ORIGIN = 248;
/** Unless UPSTREAM_TIMEOUT_MS is shorter. */
const IMAGE_FETCH_TIMEOUT_MS = 3000;

/** Made on an origin's first image; bounded, as only configured origins are fetched. */
interface ImageFetchers {
  of(origin: string): UpstreamClient;
  close(): void;
}

export function createImageFetchers(upstreamTimeoutMs: number): ImageFetchers {
  const clients = new Map<string, UpstreamClient>();
  return {
    of(origin) {
      let client = clients.get(origin);
      if (!client) {
        client = createUpstreamClient({
          baseUrl: origin,
          timeoutMs: Math.min(IMAGE_FETCH_TIMEOUT_MS, upstreamTimeoutMs),
          maxSockets: IMAGE_SOCKETS_PER_ORIGIN,
          maxQueue: IMAGE_WAITING_PER_ORIGIN,
        });
        clients.set(origin, client);
      }
      return client;
    },
    close() {
      for (const client of clients.values()) client.close();
      clients.clear();
    },
  };
}

const notFound = () => new HttpError(404, "image source not found");

/** Of the source itself, not the request: a copy already kept is served instead. */
export function isSourceFailure(err: unknown): boolean {
  return err instanceof HttpError && err.status >= 500;
}

export function createSourceReader(options: ImageSourceOptions): ReadSource {
  return (source, known) => {
    if (source.kind === "site" && options.mediaDir && source.path.startsWith(MEDIA_PREFIX)) {
      return readMedia(options.mediaDir, source.path.slice(MEDIA_PREFIX.length), options.maxBytes, known);
    }
    const url = source.kind === "remote" ? source.url : new URL(source.path, options.upstreamOrigin);
    return fetchRemote(options, url, known);
  };
}

async function readMedia(dir: string, name: string, maxBytes: number, known?: Validator): Promise<SourceAnswer> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw notFound();
  const file = path.join(dir, name);
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw notFound();
  if (info.size > maxBytes) throw tooLarge();
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  if (known?.etag === etag) return { changed: false };
  return { changed: true, bytes: await readFile(file), validator: { etag }, embedded: true };
}

async function fetchRemote(options: ImageSourceOptions, first: URL, known?: Validator): Promise<SourceAnswer> {
  const headers: Record<string, string> = { accept: "image/*" };
  if (known?.etag) headers["if-none-match"] = known.etag;
  if (known?.lastModified) headers["if-modified-since"] = known.lastModified;
  let url = first;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const answer = await options.fetchers
      .of(url.origin)
      .fetch(url, { maxBodyBytes: options.maxBytes, headers })
      .catch((err: unknown) => {
        throw fromUpstreamError(err);
      });
    if (answer.status === 304 && known) return { changed: false };
    if (answer.status >= 200 && answer.status < 300) {
      return { changed: true, bytes: answer.body, validator: validatorOf(answer.headers) };
    }
    if (answer.status === 404 || answer.status === 410) throw notFound();
    const location = answer.headers.location;
    if (answer.status >= 300 && answer.status < 400 && location) {
      const next = URL.canParse(location, url) ? new URL(location, url) : undefined;
      if (!next || next.origin !== url.origin)
        throw new HttpError(502, "the image source redirects to another host, which is not followed");
      url = next;
      continue;
    }
    throw new HttpError(502, `the image source answered ${answer.status}`);
  }
  throw new HttpError(502, "the image source redirects too many times");
}

function validatorOf(headers: Record<string, string | string[] | undefined>): Validator {
  const etag = typeof headers.etag === "string" ? headers.etag : undefined;
  const lastModified = typeof headers["last-modified"] === "string" ? headers["last-modified"] : undefined;
  return { etag, lastModified };
}

const tooLarge = () => new HttpError(502, "the image source is larger than IMAGE_MAX_MB");

function fromUpstreamError(err: unknown): HttpError {
  if (!(err instanceof UpstreamError)) return new HttpError(502, "the image source could not be read");
  switch (err.kind) {
    case "too-large":
      return tooLarge();
    case "timeout":
      return new HttpError(504, "the image source did not answer in time");
    case "busy":
      return new HttpError(503, "the image source's connections are busy; try again shortly", { "Retry-After": "1" });
    case "network":
      return new HttpError(502, "the image source could not be reached");
  }
}
