/**
 * The README's picture of the demo site: the built server on a fresh SQLite file, its home
 * page in Chromium at 1280×800 and at 375×800 side by side, written as WebP to
 * docs/demo-site.webp. Run after `npm run build`: npx tsx scripts/screenshot.ts
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp, { type OutputInfo } from "sharp";
import { launchChromium } from "../harness/chromium.ts";
import { startServer } from "../harness/server-process.ts";
import { PROJECT_ROOT } from "../server/project-root.ts";

const OUT = path.join(PROJECT_ROOT, "docs/demo-site.webp");
const GAP = 24;
const SCALE = 0.5;

const dir = await mkdtemp(path.join(tmpdir(), "portal-screenshot-"));
const server = await startServer({
  name: "portal",
  env: {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
    IMAGE_CACHE_DIR: path.join(dir, "images"),
  },
  logFile: path.join(dir, "server.log"),
  // A busy machine may take minutes to load the demo site into a new database.
  startTimeoutMs: 600_000,
});
const browser = await launchChromium();
try {
  const shots: Buffer[] = [];
  for (const width of [1280, 375]) {
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    await page.goto(`${server.origin}/portal/index.html`, { waitUntil: "networkidle" });
    // The images loaded so far decoded (lazy ones below the fold never load), the fonts in: the page as a visitor sees it.
    await page.evaluate(() =>
      Promise.all([
        document.fonts.ready,
        ...[...document.images].filter((image) => image.complete).map((image) => image.decode().catch(() => {})),
      ]),
    );
    shots.push(await page.screenshot());
    await page.close();
  }
  const [wide, narrow] = (await Promise.all(
    shots.map((shot) =>
      sharp(shot)
        .resize({ height: Math.round(800 * SCALE) })
        .toBuffer({ resolveWithObject: true }),
    ),
  )) as [{ data: Buffer; info: OutputInfo }, { data: Buffer; info: OutputInfo }];
  await sharp({
    create: { width: wide.info.width + GAP + narrow.info.width, height: wide.info.height, channels: 3, background: "#ffffff" },
  })
    .composite([
      { input: wide.data, left: 0, top: 0 },
      { input: narrow.data, left: wide.info.width + GAP, top: 0 },
    ])
    .webp({ quality: 80 })
    .toFile(OUT);
  console.log(`wrote ${path.relative(PROJECT_ROOT, OUT)}`);
} finally {
  await browser.close();
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
