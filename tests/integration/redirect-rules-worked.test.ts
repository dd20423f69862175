/**
 * The worked rule files of docs/redirects.md on the built server: each file loads, and every example address its
 * table lists redirects to the Portal address beside it (or answers 410).
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withBuiltSite } from "../support/built-site.ts";
import { PROJECT_DIR } from "../support/server-process.ts";

const DOCS = path.join(PROJECT_DIR, "docs");

/** Each "### Name: [moving-in/x.csv](...)" section and the `| \`old\` | \`new\` or 410 |` rows of its table. */
function workedFiles(): { file: string; examples: [string, string][] }[] {
  const text = readFileSync(path.join(DOCS, "redirects.md"), "utf8");
  return text
    .split(/^### /m)
    .slice(1)
    .map((section) => {
      const file = /\[(moving-in\/[\w-]+\.csv)\]/.exec(section)?.[1];
      const examples = [...section.matchAll(/^\| `([^`]+)` +\| (`([^`]+)`|410) +\|$/gm)].map((m): [string, string] => [
        m[1] as string,
        (m[3] ?? m[2]) as string,
      ]);
      return { file: file as string, examples };
    })
    .filter((worked) => worked.file);
}

function send(origin: string, url: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${origin}${url}`, { agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
      })
      .on("error", reject);
  });
}

const worked = workedFiles();

describe("worked rule files", () => {
  it("are three, each with examples", () => {
    expect(worked.map((w) => w.file)).toEqual(["moving-in/pbootcms.csv", "moving-in/dedecms.csv", "moving-in/wordpress.csv"]);
    for (const { examples } of worked) expect(examples.length).toBeGreaterThan(5);
  });

  it.each(worked)("$file: every example address goes where the page says", async ({ file, examples }) => {
    await withBuiltSite({ REDIRECTS_FILE: path.join(DOCS, file) }, async (site) => {
      const answers = await Promise.all(examples.map(([from]) => send(site.origin, from)));
      const got = examples.map(([from], i) => {
        const { status, location } = answers[i] as { status: number; location: string | undefined };
        return [from, status === 410 ? "410" : status === 301 ? location : `${status} ${location}`];
      });
      expect(got).toEqual(examples);
    });
  });
});
