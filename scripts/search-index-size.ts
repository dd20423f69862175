/**
 * The search index's size on disk per item, for sizing the volume that holds it (docs/operations.md,
 * "What to mount"; deploy/measured.json): builds one index file of generated items of the
 * demo site's vocabulary, each with a body of the given length (the index keeps at most
 * 20,000 characters of it), and prints its bytes per item as JSON.
 *   npx tsx scripts/search-index-size.ts [items=2000] [bodyChars=2000]
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../server/project-root.ts";
import { SearchIndex } from "../server/search/search-index.ts";

const items = Number(process.argv[2] ?? 2000);
const bodyChars = Number(process.argv[3] ?? 2000);
if (!Number.isSafeInteger(items) || items < 1 || !Number.isSafeInteger(bodyChars) || bodyChars < 0) {
  console.error("usage: tsx scripts/search-index-size.ts [items ≥ 1] [body characters ≥ 0]");
  process.exit(2);
}

/** A deterministic generator, so every run indexes the same text. */
let seed = 20_261_128;
const next = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const site = readFileSync(path.join(PROJECT_ROOT, "content/site.json"), "utf8").replace(/<[^>]+>/g, " ");
const chinese = [...new Set(site.match(/\p{Script=Han}{2,4}/gu) ?? [])];
const latin = [...new Set((site.match(/[A-Za-z][A-Za-z0-9]{2,}/g) ?? []).map((word) => word.toLowerCase()))];
const pick = (words: string[]) => words[Math.floor(next() * words.length)] as string;
const sentence = (words: number) =>
  `${Array.from({ length: words }, () => (next() < 0.12 ? ` ${pick(latin)} ` : pick(chinese))).join("")}。`;
const text = (chars: number) => {
  let out = "";
  while (out.length < chars) out += sentence(16);
  return out.slice(0, chars);
};

const dir = mkdtempSync(path.join(tmpdir(), "portal-search-size-"));
try {
  const index = new SearchIndex(path.join(dir, "search.db"));
  index.open();
  index.beginBuild();
  for (let at = 0; at < items; at += 50) {
    const batch = Array.from({ length: Math.min(50, items - at) }, (_, i) => ({
      type: "news" as const,
      id: at + i + 1,
      title: sentence(5),
      brief: sentence(20),
      body: text(bodyChars),
      date: "20260101093000",
      url: `/portal/message/news/${at + i + 1}`,
      fingerprint: "0123456789abcdef",
    }));
    index.addToBuild(batch);
  }
  index.finishBuild(0, 0);
  const bytes = statSync(index.file).size;
  index.close();
  console.log(JSON.stringify({ items, bodyChars, bytes, bytesPerItem: Math.round(bytes / items) }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
