/**
 * On the built server: a 410 rule added for a page the page cache already holds answers 410 from then on, and the
 * paths Portal serves itself are never redirected, however a request spells their case (as Express routes them),
 * nor the IndexNow key file. docs/redirects.md#the-answers.
 */
import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";

const KEY = "precedencekey12345";
const ELSEWHERE = "https://elsewhere.example/";
const RULES = [
  "from,to,status",
  `/API/*,${ELSEWHERE}*,302`,
  `/Portal/healthz,${ELSEWHERE},302`,
  `/portal/HEALTHZ/,${ELSEWHERE},302`,
  `/ROBOTS.TXT,${ELSEWHERE},302`,
  `/${KEY}.txt,${ELSEWHERE},302`,
  `/control,${ELSEWHERE},302`,
].join("\n");

let dir: string;
let file: string;
let site: BuiltSite;
let metricsPort: number | undefined;
/** IndexNow as a loopback receiver: the site may tell it of its items while the test runs. */
const indexNow = http.createServer((req, res) => {
  req.resume().on("end", () => res.writeHead(202).end());
});

function send(url: string, method = "GET"): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .request(`${site.origin}${url}`, { method, agent: false }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      })
      .on("error", reject)
      .end();
  });
}

const rulesInForce = async () => {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return Number(/^portal_redirect_rules (\d+)/m.exec(text)?.[1] ?? Number.NaN);
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "portal-redirects-"));
  file = path.join(dir, "rules.csv");
  await writeFile(file, RULES);
  await new Promise<void>((resolve) => indexNow.listen(0, "127.0.0.1", resolve));
  site = await startBuiltSite({
    REDIRECTS_FILE: file,
    METRICS_PORT: "0",
    PUBLIC_ORIGIN: "https://www.example.com",
    INDEXNOW_KEY: KEY,
    INDEXNOW_ENDPOINT: `http://127.0.0.1:${(indexNow.address() as AddressInfo).port}/indexnow`,
  });
  metricsPort = site.logs
    .map((line) => (line.startsWith("{") ? (JSON.parse(line) as { msg?: string; port?: number }) : {}))
    .find((entry) => entry.msg === "internal listener")?.port;
});

afterAll(async () => {
  await site?.close();
  indexNow.close();
  await rm(dir, { recursive: true, force: true });
});

describe("what Portal serves itself is never redirected", () => {
  it("whatever the case of its letters or a final slash, as Express routes it", async () => {
    expect((await send("/control")).headers.location).toBe(ELSEWHERE);
    const api = await send("/API/portal/sys/syscfg");
    expect([api.status, api.headers.location]).toEqual([200, undefined]);
    for (const url of ["/Portal/healthz", "/portal/HEALTHZ/"]) {
      const health = await send(url);
      expect([url, health.status, health.headers.location]).toEqual([url, 200, undefined]);
    }
    expect((await send("/ROBOTS.TXT")).headers.location).toBeUndefined();
  });

  it("nor the IndexNow key file", async () => {
    const keyFile = await send(`/${KEY}.txt`);
    expect([keyFile.status, keyFile.text]).toEqual([200, KEY]);
  });
});

describe("a 410 rule for a page already in the page cache", () => {
  it("answers 410 from the moment the file is read again, every time", async () => {
    const page = "/portal/about/index.html";
    let cached = await send(page);
    for (let i = 0; i < 20 && cached.headers["x-page-cache"] !== "HIT"; i++) cached = await send(page);
    expect([cached.status, cached.headers["x-page-cache"]]).toEqual([200, "HIT"]);

    const before = await rulesInForce();
    await appendFile(file, `\n${page},,410\n`);
    while ((await rulesInForce()) !== before + 1) await new Promise((resolve) => setImmediate(resolve));
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(page)).status);
    statuses.push((await send(page, "HEAD")).status);
    expect(statuses).toEqual([410, 410, 410, 410, 410, 410, 410]);
  });
});
