/**
 * (j) The home page's JavaScript as a browser is sent it, read from two running servers: the demo site in its
 * two languages and in ten (PORTAL_LANGS). A language's strings are loaded by its own pages only, so the home
 * page names the same scripts whatever the number of languages, and the two sums must be equal.
 */
import { gzipSync } from "node:zlib";
import { type BenchContext, rawGet } from "./bench-servers.ts";
import { log } from "./options.ts";

const TEN_LANGS = "zh-CN,zh-TW,en,ja,ko,es,fr,de,ru,ar";
const HOME_PATH = "/portal/index.html";

export interface ServedJs {
  langs: number;
  files: number;
  gzipBytes: number;
}

/** Every script the page names (its entry and the modules it preloads), each gzipped at zlib's default level. */
async function servedHomeJs(origin: string): Promise<Omit<ServedJs, "langs">> {
  const html = (await rawGet(origin + HOME_PATH, {})).body.toString("utf8");
  const srcs = [...html.matchAll(/<(?:script[^>]+src|link rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)].map((m) => m[1] as string);
  let gzipBytes = 0;
  for (const src of srcs) gzipBytes += gzipSync((await rawGet(origin + src, {})).body).length;
  return { files: srcs.length, gzipBytes };
}

export async function measureServedJs({ startBenchServer }: BenchContext): Promise<ServedJs[]> {
  log("(j) the home page's JavaScript as served, with two languages and with ten");
  const measured: ServedJs[] = [];
  for (const [name, langs] of [
    ["j2", ""],
    ["j10", TEN_LANGS],
  ] as const) {
    const server = await startBenchServer(name, langs ? { PORTAL_LANGS: langs } : {});
    measured.push({ langs: langs ? 10 : 2, ...(await servedHomeJs(server.origin)) });
    await server.stop();
  }
  return measured;
}
