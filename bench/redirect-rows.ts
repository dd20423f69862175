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
}

const LOOKUPS = [
  REDIRECT_HIT_PATH,
  REDIRECT_PATTERN_PATH,
  "/plus/view.php?aid=77&x=1",
  "/plus/list.php?tid=50000",
  "/portal/index.html",
  "/portal/message/news/list.html?page=2",
  "/no/such/address.html",
];

function cpuNsPerLookup(lookup: (url: string) => unknown, rounds: number): number {
  const started = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (const url of LOOKUPS) lookup(url);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / (rounds * LOOKUPS.length);
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
  };
}
