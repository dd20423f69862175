/**
 * The crawler of the bench's (k2) row: one client walking keys nobody asked for before
 * (list pages past the ones visitors read, news ids that do not exist, API list pages),
 * a few requests at a time on kept-alive connections, as a search engine's bot does.
 * It walks on from where it stopped, so every key it asks for in a bench run is new.
 *
 * A walk of 10,000 keys under the default miss budget lasts some 17 minutes, and all but
 * its first seconds run at the budget's steady rate: the bucket's burst is spent at once.
 * The bench measures in rounds of a few seconds with pauses between them, long enough
 * for the bucket to fill again, so each walk first spends the burst (until the budget's
 * first refusal) and the round is measured from there: the steady state, as a real crawl
 * is met almost all of its time.
 */
import http from "node:http";

export interface CrawlResult {
  keys: number;
  wallMs: number;
  statuses: Map<number, number>;
}

/** The k-th key of the walk: four kinds in turn, each a page or answer no cache holds yet. */
export function crawlerPath(k: number): string {
  const step = Math.floor(k / 4);
  switch (k % 4) {
    case 0:
      return `/portal/message/news/list.html?page=${2 + step}&size=1`;
    case 1:
      return `/portal/message/news/${100_000 + step}`;
    case 2:
      return `/api/portal/message/news/list?pageIndex=${1 + step}&pageMaxCount=1`;
    default:
      return `/portal/job/society/index.html?page=${2 + step}`;
  }
}

export interface Crawler {
  /**
   * Walks until stopped or until `limit` keys in all. `steady` resolves once the miss
   * budget's burst is spent (its first refusal, or `BURST_BOUND` keys when none comes);
   * `stop` resolves with the figures of the walk from then on.
   */
  walk(): { steady: Promise<void>; stop(): Promise<CrawlResult> };
}

/** Keys after which a walk counts as steady though no refusal came (no budget): far past any default burst. */
const BURST_BOUND = 200;

export function crawlerOf(origin: string, options: { connections: number; limit: number }): Crawler {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  let next = 0;
  const get = (path: string) =>
    new Promise<number>((resolve) => {
      http
        .get(origin + path, { agent, headers: { "Accept-Encoding": "gzip, br" } }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        })
        .on("error", () => resolve(0));
    });
  return {
    walk() {
      let stopped = false;
      let isSteady = false;
      let becomeSteady = () => {};
      const steady = new Promise<void>((resolve) => {
        becomeSteady = () => {
          isSteady = true;
          resolve();
        };
      });
      const statuses = new Map<number, number>();
      let started = performance.now();
      let [keys, burst] = [0, 0];
      const lane = async () => {
        while (!stopped && next < options.limit) {
          const status = await get(crawlerPath(next++));
          if (!isSteady) {
            if (status === 429 || ++burst >= BURST_BOUND) {
              started = performance.now();
              becomeSteady();
            }
            continue;
          }
          keys++;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
        becomeSteady();
      };
      const lanes = Array.from({ length: options.connections }, lane);
      return {
        steady,
        async stop() {
          stopped = true;
          await Promise.all(lanes);
          return { keys, wallMs: performance.now() - started, statuses };
        },
      };
    },
  };
}
