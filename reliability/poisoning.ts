/**
 * Cache poisoning and deception, on the production process behind a trusted proxy
 * (TRUST_PROXY=loopback, so X-Forwarded-* are believed, the setting most open to
 * poisoning) with PUBLIC_ORIGIN set.
 *
 * Poisoning: for each hostile request header (or header set), fresh keys (pages, list
 * pages, API answers, redirects) are first asked for WITH the header, so that request
 * fills the page and API caches; then a plain client asks for the same keys. What the
 * plain client receives (status, body, Location, Content-Type, Content-Encoding, Vary)
 * must equal what a second, untouched server answers the same plain request, and
 * never name the attacker's host. robots.txt, the sitemap and the feeds (one key each)
 * are asked for first with every hostile header at once.
 *
 * Deception: static-looking URLs under a page (`/portal/message/news/1/x.css` and
 * kin) never answer a page: a no-store redirect, the same on the second ask (never from
 * the page cache), so no CDN keeping *.css stores a page under that key; see
 * DECEPTION_PATHS for malformed ids that look like files.
 */
import { startServer } from "../harness/server-process.ts";
import { logFileOf, type RunContext } from "./context.ts";
import { Checks, type SectionResult } from "./report.ts";
import { serverEnv } from "./server.ts";
import { type Answer, exchange } from "./traffic.ts";
import { startControlledUpstream } from "./upstream.ts";

const EVIL = "evil.example";
const PUBLIC_ORIGIN = "https://www.example.com";

export const HOSTILE_HEADERS: [string, Record<string, string>][] = [
  ["X-Forwarded-Host", { "x-forwarded-host": EVIL }],
  ["X-Forwarded-Proto and X-Forwarded-Port", { "x-forwarded-proto": "http", "x-forwarded-port": "8080" }],
  ["Host", { host: EVIL }],
  ["Forwarded", { forwarded: `host=${EVIL};proto=http` }],
  ["X-Original-URL and X-Rewrite-URL", { "x-original-url": "/portal/about/index.html", "x-rewrite-url": "/portal/about/index.html" }],
  ["X-Host and X-Forwarded-Server", { "x-host": EVIL, "x-forwarded-server": EVIL }],
  ["Accept-Language", { "accept-language": "en-US,en;q=0.9" }],
  ["a language cookie", { cookie: "portal_lang=en" }],
  ["X-HTTP-Method-Override", { "x-http-method-override": "PUT" }],
  ["Accept-Encoding: br", { "accept-encoding": "br" }],
  ["Range", { range: "bytes=0-99" }],
  ["If-None-Match: *", { "if-none-match": "*" }],
  ["X-Forwarded-For", { "x-forwarded-for": "203.0.113.9" }],
  ["Accept: application/json", { accept: "application/json" }],
  ["X-Request-Id with markup", { "x-request-id": "<script>alert(1)</script>" }],
  ["User-Agent of a crawler", { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" }],
];

/** Fresh keys for the n-th header set: nobody asked for these before. */
const keysFor = (n: number) => [
  `/portal/message/news/${n + 1}`,
  `/portal/message/notice/list.html?page=${n + 2}`,
  `/portal/job/society/${n + 1}`,
  `/api/portal/message/notice/${n + 1}`,
  `/api/portal/message/news/list?pageIndex=${n + 5}&pageMaxCount=3`,
  `/portal/?from=${n}`,
  `/portal/no-such-page-${n}`,
];
const SINGLE_KEYS = [
  "/robots.txt",
  "/sitemap.xml",
  "/portal/sitemap.xml",
  "/portal/message/news/rss.xml",
  "/portal/message/notice/rss.xml",
];

/**
 * Static-looking URLs and what they must answer. A file name after a page path is no page:
 * a no-store redirect (or the API's JSON 404). A malformed id that looks like a file
 * (`1.css`) names no item: the same not-found page as any unknown id (docs/behaviour.md#page-status),
 * never the item's own page.
 */
export const DECEPTION_PATHS: [string, "redirect" | "not-found" | "api-404"][] = [
  ["/portal/message/news/1/x.css", "redirect"],
  ["/portal/message/news/1/..%2Fx.js", "redirect"],
  ["/portal/message/news/1/x.css?v=1", "redirect"],
  ["/portal/index.html/style.css", "redirect"],
  ["/portal/index.html%3Fx.css", "redirect"],
  ["/portal/message/news/list.html/x.png", "redirect"],
  ["/portal/about/index.html/..;/x.js", "redirect"],
  ["/portal/job/society/1/a.js", "redirect"],
  ["/portal/product/1/x.svg", "redirect"],
  ["/portal/message/news/1.css", "not-found"],
  ["/portal/message/news/1;x.css", "not-found"],
  ["/portal/message/news/1%2Fx.css", "not-found"],
  ["/api/portal/message/news/1/x.css", "api-404"],
  ["/api/portal/sys/syscfg/x.js", "api-404"],
];

/** The parts of an answer another client would notice. */
function visible(answer: Answer | undefined): string {
  if (!answer) return "no answer";
  const h = answer.headers;
  return JSON.stringify({
    status: answer.status,
    location: h.location,
    type: h["content-type"],
    encoding: h["content-encoding"],
    vary: h.vary,
    body: answer.body,
  });
}

export async function runPoisoning(ctx: RunContext): Promise<SectionResult> {
  const checks = new Checks();
  const upstream = await startControlledUpstream(ctx.site, ctx.workDir);
  const env = serverEnv({
    API_BASE_URL: upstream.url,
    PORTAL_CLASSIFY: upstream.classifyJson,
    TRUST_PROXY: "loopback",
    PUBLIC_ORIGIN,
  });
  const logFile = logFileOf(ctx, "poisoning");
  const referenceLog = logFileOf(ctx, "poisoning-reference");
  const [server, reference] = await Promise.all([
    startServer({ name: "poisoned server", logFile, cpus: ctx.serverCpus, env }),
    startServer({ name: "reference server", logFile: referenceLog, cpus: ctx.serverCpus, env }),
  ]);
  let compared = 0;
  try {
    const plain = (origin: string, path: string) => exchange(origin, { path }, false);

    // Keys with one entry each: every hostile header at once, first.
    const everything = Object.assign({}, ...HOSTILE_HEADERS.map(([, h]) => h)) as Record<string, string>;
    for (const path of SINGLE_KEYS) await exchange(server.origin, { path, headers: everything }, false);
    let singleKeysPoisoned = false;
    for (const path of SINGLE_KEYS) {
      const [got, want] = await Promise.all([plain(server.origin, path), plain(reference.origin, path)]);
      compared++;
      singleKeysPoisoned ||= visible(got.answer) !== visible(want.answer) || visible(got.answer).includes(EVIL);
      checks.add(
        `${path} is the same for everyone after every hostile header`,
        visible(got.answer) === visible(want.answer) && !visible(got.answer).includes(EVIL),
        got.error,
      );
    }

    // Header sets use disjoint keys, so they run side by side; within one, the order is the point.
    const verdicts = await Promise.all(
      HOSTILE_HEADERS.map(async ([name, headers], n) => {
        const differences: string[] = [];
        for (const path of keysFor(n)) {
          const hostile = await exchange(server.origin, { path, headers }, false);
          if (!hostile.answer) differences.push(`${path}: the hostile request got no answer (${hostile.error})`);
          // Twice: the second plain request is the one a cache hit would answer.
          for (let i = 0; i < 2; i++) {
            const [got, want] = await Promise.all([plain(server.origin, path), plain(reference.origin, path)]);
            compared++;
            const shown = visible(got.answer);
            if (shown !== visible(want.answer)) differences.push(`${path}: differs from the untouched server (${shown.slice(0, 160)})`);
            else if (shown.includes(EVIL)) differences.push(`${path}: names ${EVIL}`);
          }
        }
        return { name, differences };
      }),
    );
    const poisoned = verdicts.filter((v) => v.differences.length > 0).length + (singleKeysPoisoned ? 1 : 0);
    for (const { name, differences } of verdicts) {
      checks.add(`${name} never changes what another client receives`, differences.length === 0, differences.slice(0, 4).join("\n"));
    }

    // A compressed variant is only ever sent to a client that accepts it.
    const brotli = await exchange(server.origin, { path: "/portal/about/index.html", headers: { "accept-encoding": "br" } }, false);
    const gzip = await exchange(server.origin, { path: "/portal/about/index.html", headers: { "accept-encoding": "gzip" } }, false);
    const identity = await exchange(server.origin, { path: "/portal/about/index.html", headers: { "accept-encoding": "identity" } }, false);
    checks.add(
      "each client gets the encoding it accepts",
      brotli.answer?.headers["content-encoding"] === "br" &&
        gzip.answer?.headers["content-encoding"] === "gzip" &&
        identity.answer?.headers["content-encoding"] === undefined,
      `br → ${brotli.answer?.headers["content-encoding"]}, gzip → ${gzip.answer?.headers["content-encoding"]}, identity → ${identity.answer?.headers["content-encoding"]}`,
    );

    let deceived = 0;
    const itemTitle = ctx.site.news.find((m) => m.id === 1)?.title ?? "";
    for (const [path, expected] of DECEPTION_PATHS) {
      const first = await exchange(server.origin, { path }, false);
      const second = await exchange(server.origin, { path }, false);
      const problems: string[] = [];
      for (const outcome of [first, second]) {
        const answer = outcome.answer;
        if (!answer) {
          problems.push(`no answer (${outcome.error})`);
          continue;
        }
        const type = String(answer.headers["content-type"]);
        const cacheControl = String(answer.headers["cache-control"]);
        if (answer.body.includes(itemTitle)) problems.push("answered the item's own page");
        if (expected === "redirect") {
          if (answer.status !== 302 || !cacheControl.includes("no-store")) problems.push(`answered ${answer.status} (${cacheControl})`);
          if (answer.headers["x-page-cache"]) problems.push(`X-Page-Cache: ${answer.headers["x-page-cache"]}`);
        } else if (expected === "api-404") {
          if (answer.status !== 404 || !type.startsWith("application/json") || !cacheControl.includes("no-store"))
            problems.push(`answered ${answer.status} ${type} (${cacheControl})`);
        } else if (answer.status !== 404 || !type.startsWith("text/html")) {
          problems.push(`answered ${answer.status} ${type}`);
        }
      }
      if (problems.length) deceived++;
      const what = {
        redirect: "a no-store redirect, never a page",
        "not-found": "the not-found page, never the item",
        "api-404": "a no-store JSON 404",
      }[expected];
      checks.add(`${path} answers ${what}`, problems.length === 0, problems.join("; "));
    }
    // The control: a real page does get stored, so "not stored" above means something.
    await plain(server.origin, "/portal/message/news/1");
    const control = await plain(server.origin, "/portal/message/news/1");
    checks.add("control: a real page is stored in the page cache", control.answer?.headers["x-page-cache"] === "HIT");
    checks.add("the servers are still running", server.alive() && reference.alive());

    return {
      section: "cache poisoning and deception",
      headline: `cache poisoning and deception: ${poisoned} of ${HOSTILE_HEADERS.length} hostile headers (on ${HOSTILE_HEADERS.length * keysFor(0).length + SINGLE_KEYS.length} keys) changed what another client receives; ${deceived} of ${DECEPTION_PATHS.length} static-looking URLs answered or stored an item's page`,
      checks: checks.list,
      figures: [
        `${HOSTILE_HEADERS.length} hostile headers × ${keysFor(0).length} fresh keys, + ${SINGLE_KEYS.length} single keys; ${compared} plain answers compared with an untouched server`,
        `${DECEPTION_PATHS.length - deceived}/${DECEPTION_PATHS.length} static-looking URLs never answered or stored an item's page`,
      ],
      logs: [logFile, referenceLog],
    };
  } finally {
    await Promise.all([server.stop(), reference.stop()]);
    await upstream.close();
  }
}
