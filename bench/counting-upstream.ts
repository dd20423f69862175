/**
 * The bench's stand-in upstream for the cold-key scenario: a node:http server that
 * forwards every request to a real embedded content API (the demo site on its own
 * SQLite file) and counts the requests per URL, so the bench can tell how many
 * upstream requests a burst of visitors caused.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startContentApi } from "../server/content/api.ts";
import { openContentDb } from "../server/content/db.ts";
import { loadSiteIfEmpty } from "../server/content/site-io.ts";
import { getClassifyMenus } from "../server/content/store.ts";
import { DEMO_SITE_FILE } from "../server/project-root.ts";

export interface CountingUpstream {
  url: string;
  /** The demo site's classify menus, as PORTAL_CLASSIFY, so pages render as on the embedded site. */
  classifyJson: string;
  /** Requests per URL since the last reset. */
  counts(): Map<string, number>;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingUpstream(databaseFile: string): Promise<CountingUpstream> {
  const content = await openContentDb(`sqlite:${databaseFile}`);
  await loadSiteIfEmpty(content, DEMO_SITE_FILE);
  const classifyJson = JSON.stringify(await getClassifyMenus(content));
  const api = await startContentApi(content);
  const target = new URL(api.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let counts = new Map<string, number>();

  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    counts.set(url, (counts.get(url) ?? 0) + 1);
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    classifyJson,
    counts: () => new Map(counts),
    reset: () => {
      counts = new Map();
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      agent.destroy();
      await api.close();
      await content.close();
    },
  };
}
