/**
 * (r) Redirect rules: a rules file of 100,000 rules as a big site's move would write (exact addresses, ids in a
 * query, patterns by column), its load time, and a lookup's cost against the same lookups in a file of 10 rules.
 */
import { performance } from "node:perf_hooks";
import { parseRulesFile } from "../server/redirect-rules/rules-file.ts";

export const REDIRECT_RULES = 100_000;
/** What (r) asks for: an exact rule from the middle of the file. */
export const REDIRECT_HIT_PATH = `/old/a${REDIRECT_RULES / 2 + 1}.html?from=bench`;
/** What (r2) asks for: a pattern, found by its first segment among a thousand others. */
export const REDIRECT_PATTERN_PATH = "/column500/12345.html";

/** `count` rules: a thousand patterns, a few with a query, the rest exact. */
export function redirectRulesCsv(count: number): string {
  const lines = ["from,to,status"];
  const patterns = Math.min(1000, Math.floor(count / 10));
  for (let i = 0; i < patterns; i++) lines.push(`/column${i}/:id.html,/portal/message/news/:id,`);
  lines.push("/plus/view.php?aid=:id,/portal/message/news/:id,");
  for (let i = lines.length - 1; i < count; i++) {
    lines.push(i % 10 === 0 ? `/plus/list.php?tid=${i},/portal/message/news/list.html,` : `/old/a${i}.html,/portal/message/news/${i},`);
  }
  return lines.join("\n");
}

export interface RuleTableFigures {
  rules: number;
  loadMs: number;
  loadCpuMs: number;
  /** CPU per lookup of the same addresses, in the big file and in one of 10 rules that answers them alike. */
  lookupNs: number;
  smallLookupNs: number;
  /** The same for a file of patterns only (`patternRulesCsv`), against 10 patterns. */
  patterns: { rules: number; loadMs: number; loadCpuMs: number; lookupNs: number; smallLookupNs: number };
}

/**
 * `count` patterns and nothing else, the shapes that cost most when scanned: half begin with a `:name` and differ only
 * in their second segment's literal text (`/:cat/list{i}_:page.html`), half share their first segment (`/a/c{i}/:id.html`).
 */
export function patternRulesCsv(count: number): string {
  const lines = ["from,to,status"];
  for (let i = 0; i < count; i++) {
    lines.push(i % 2 === 0 ? `/:cat/list${i}_:page.html,/portal/:cat/:page,` : `/a/c${i}/:id.html,/portal/message/news/:id,`);
  }
  return lines.join("\n");
}

const PATTERN_LOOKUPS = ["/news/list50000_3.html", "/a/c50001/12.html", "/portal/index.html", "/a/zzz/1.html", "/news/list_3.html", "/x/y"];

const LOOKUPS = [
  REDIRECT_HIT_PATH,
  REDIRECT_PATTERN_PATH,
  "/plus/view.php?aid=77&x=1",
  "/plus/list.php?tid=50000",
  "/portal/index.html",
  "/portal/message/news/list.html?page=2",
  "/no/such/address.html",
];

function cpuNsPerLookup(lookup: (url: string) => unknown, rounds: number, urls = LOOKUPS): number {
  const started = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (const url of urls) lookup(url);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / (rounds * urls.length);
}

function measurePatternTable(): RuleTableFigures["patterns"] {
  const text = patternRulesCsv(REDIRECT_RULES);
  const lines = text.split("\n");
  // The two the lookups find, and eight others of the same shapes.
  const found = lines.filter((line) => /^\/(:cat\/list50000_|a\/c50001\/)/.test(line));
  const small = parseRulesFile([...lines.slice(0, 9), ...found].join("\n")).table;
  if (small.size !== 10) throw new Error(`the small pattern file holds ${small.size} rules, not 10`);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const { table } = parseRulesFile(text);
  const loadMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  for (const url of PATTERN_LOOKUPS) {
    if (table.lookup(url)?.location !== small.lookup(url)?.location) throw new Error(`the two pattern files answer ${url} differently`);
  }
  cpuNsPerLookup((url) => table.lookup(url), 20_000, PATTERN_LOOKUPS);
  cpuNsPerLookup((url) => small.lookup(url), 20_000, PATTERN_LOOKUPS);
  return {
    rules: table.size,
    loadMs,
    loadCpuMs: (cpu.user + cpu.system) / 1000,
    lookupNs: cpuNsPerLookup((url) => table.lookup(url), 100_000, PATTERN_LOOKUPS),
    smallLookupNs: cpuNsPerLookup((url) => small.lookup(url), 100_000, PATTERN_LOOKUPS),
  };
}

export function measureRuleTable(): RuleTableFigures {
  const text = redirectRulesCsv(REDIRECT_RULES);
  // The same rules the lookups find, so the two differ only in how many others they hold.
  const big = text.split("\n");
  const found = big.filter((line) => /^\/(old\/a50001\.html|column500\/|plus\/view\.php|plus\/list\.php\?tid=50000,)/.test(line));
  const small = parseRulesFile([...big.slice(0, 7), ...found].join("\n")).table;
  if (small.size !== 10) throw new Error(`the small rules file holds ${small.size} rules, not 10`);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const { table } = parseRulesFile(text);
  const loadMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  // Warmed alike, then measured alike.
  cpuNsPerLookup((url) => table.lookup(url), 20_000);
  cpuNsPerLookup((url) => small.lookup(url), 20_000);
  return {
    rules: table.size,
    loadMs,
    loadCpuMs: (cpu.user + cpu.system) / 1000,
    lookupNs: cpuNsPerLookup((url) => table.lookup(url), 100_000),
    smallLookupNs: cpuNsPerLookup((url) => small.lookup(url), 100_000),
    patterns: measurePatternTable(),
  };
}
