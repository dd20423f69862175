/**
 * What the image rows of the bench need: a photograph-like source (a 1920 × 1280 JPEG made
 * with sharp: smooth gradients under fine noise, so it compresses as a photograph does)
 * served from this process on 127.0.0.1, and the cold-resize run: every width and quality
 * of one format asked for once, one request at a time, each a fetch, a resize and an encode.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { IMAGE_QUALITIES, IMAGE_WIDTHS, imageUrl } from "../shared/image-url.ts";

export const PHOTO_PATH = "/photo.jpg";

export interface PhotoSource {
  url: string;
  bytes: number;
  close(): Promise<void>;
}

export async function startPhotoSource(): Promise<PhotoSource> {
  const [width, height] = [1920, 1280];
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const grain = (Math.random() - 0.5) * 24;
      pixels[i] = 128 + 100 * Math.sin(x / 170) + grain;
      pixels[i + 1] = 128 + 100 * Math.cos(y / 130) + grain;
      pixels[i + 2] = 128 + 100 * Math.sin((x + y) / 240) + grain;
    }
  }
  const photo = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const server = http.createServer((req, res) => {
    if (req.url !== PHOTO_PATH) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/jpeg", "content-length": photo.length, etag: '"photo"' }).end(photo);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: photo.length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ColdResizes {
  count: number;
  wallMs: number;
  /** Each request's time to its last byte, ms, sorted. */
  latenciesMs: number[];
  bytesPerResponse: number;
  failures: number;
}

/** Every width × quality of `source` in the format `accept` asks for, each new to the server, one at a time. */
export async function coldResizes(origin: string, source: string, accept: string): Promise<ColdResizes> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let bytes = 0;
  let failures = 0;
  const started = performance.now();
  for (const quality of IMAGE_QUALITIES) {
    for (const width of IMAGE_WIDTHS) {
      const t0 = performance.now();
      const { status, size } = await new Promise<{ status: number; size: number }>((resolve, reject) => {
        http
          .get(origin + imageUrl(source, width, quality), { agent, headers: { accept } }, (res) => {
            let size = 0;
            res.on("data", (chunk: Buffer) => {
              size += chunk.length;
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, size }));
          })
          .on("error", reject);
      });
      latencies.push(performance.now() - t0);
      bytes += size;
      if (status !== 200) failures++;
    }
  }
  const wallMs = performance.now() - started;
  agent.destroy();
  const count = latencies.length;
  return { count, wallMs, latenciesMs: latencies.sort((a, b) => a - b), bytesPerResponse: bytes / count, failures };
}
