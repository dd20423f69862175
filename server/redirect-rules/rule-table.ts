// The loaded rules, indexed so a lookup costs the same with 10 rules or 100,000 (docs/redirects.md#matching):
// exact rules in maps, patterns in a tree of segments. Chains are followed here, at most MAX_CHAIN steps.
import { PatternIndex } from "./pattern-index.ts";
import { type RequestParts, requestPartsOf } from "./request-parts.ts";
import { fill, isLocalPath, type Match, matchRule } from "./rule-match.ts";
import type { RedirectStatus, Rule } from "./rule-syntax.ts";

export const MAX_CHAIN = 10;

export interface RedirectAnswer {
  status: RedirectStatus;
  /** Undefined for 410. */
  location: string | undefined;
  /** The rule the request matched (its file line). */
  line: number;
}

export class RuleChainError extends Error {
  readonly lines: number[];
  constructor(message: string, lines: number[]) {
    super(message);
    this.lines = lines;
  }
}

/** What an exact rule without a query needs (its `from` is its map key, its `to` a fixed string), shared by all. */
const NO_KEYS: readonly string[] = [];

const EXACT_FROM: Rule["from"] = { segments: [], rest: false, query: [], exact: true };

export class RuleTable {
  /**
   * Exact rules without a query, most of a large file: by path, an index into columns, so 100,000 of them are
   * a map and a few arrays rather than 100,000 objects (docs/redirects.md#bounded-work).
   */
  private readonly exact = new Map<string, number>();
  private readonly exactLines: number[] = [];
  private readonly exactStatuses: Rule["status"][] = [];
  /** Undefined for 410. */
  private readonly exactTargets: (string | undefined)[] = [];
  private readonly exactOrigins: (string | undefined)[] = [];
  private readonly exactKeepsQuery: boolean[] = [];
  /** By path and the first query part: `path\nname=value`. */
  private readonly exactQuery = new Map<string, Rule[]>();
  private readonly patterns = new PatternIndex();
  /** Every rule but the exact ones without a query, in file order. */
  private readonly others: Rule[] = [];

  get size(): number {
    return this.exactLines.length + this.others.length;
  }

  /** In file order. Returns the line of an earlier exact rule without a query for the same path, which keeps it. */
  add(rule: Rule): number | undefined {
    const { from } = rule;
    if (from.exact && from.query.length === 0) {
      const pathKey = from.pathKey as string;
      const earlier = this.exact.get(pathKey);
      if (earlier !== undefined) return this.exactLines[earlier];
      this.exact.set(pathKey, this.exactLines.length);
      this.exactLines.push(rule.line);
      this.exactStatuses.push(rule.status);
      this.exactTargets.push(typeof rule.to?.parts === "string" ? rule.to.parts : undefined);
      this.exactOrigins.push(rule.to?.origin);
      this.exactKeepsQuery.push(rule.to?.hasQuery === false);
      return undefined;
    }
    this.others.push(rule);
    if (from.exact) {
      const part = from.query[0] as Rule["from"]["query"][number];
      const key = `${from.pathKey}\n${part.key.prefix}=${part.value?.prefix ?? ""}`;
      const list = this.exactQuery.get(key);
      if (list) list.push(rule);
      else this.exactQuery.set(key, [rule]);
    } else {
      this.patterns.add(rule);
    }
    return undefined;
  }

  /** The rule at an index of the exact columns, made whole for the one request that matched it. */
  private exactRule(index: number): Rule {
    const target = this.exactTargets[index];
    const status = this.exactStatuses[index] as Rule["status"];
    return {
      line: this.exactLines[index] as number,
      from: EXACT_FROM,
      status,
      to: target === undefined ? undefined : { parts: target, origin: this.exactOrigins[index], hasQuery: !this.exactKeepsQuery[index] },
    };
  }

  /** Exact rules first (the earliest that matches), then patterns in file order. */
  private match(req: RequestParts): Match | undefined {
    let best: Match | undefined;
    const plain = this.exact.get(req.pathKey);
    if (plain !== undefined) best = { rule: this.exactRule(plain), captures: {}, rest: [] };
    if (this.exactQuery.size > 0 && req.query) {
      for (const [key, value] of req.items) {
        for (const rule of this.exactQuery.get(`${req.pathKey}\n${key}=${value}`) ?? []) {
          if (best && best.rule.line < rule.line) break;
          const found = matchRule(rule, req);
          if (found) best = found;
        }
      }
    }
    if (best) return best;
    const queryKeys = req.query && req.items.length > 0 ? [...req.query.keys()] : NO_KEYS;
    return this.patterns.find({ segments: req.segments, queryKeys }, (rule) => matchRule(rule, req));
  }

  /** How many pattern rules the last lookup checked in full, its chain's steps included: its work, counted. */
  patternsTried = 0;

  /** The answer for a request URL (path and query, as received), or undefined when no rule matches. */
  lookup(url: string): RedirectAnswer | undefined {
    const triedBefore = this.patterns.tried;
    const req = requestPartsOf(url);
    const found = req && this.match(req);
    try {
      return found && this.follow(found, req.rawQuery, []);
    } catch {
      // A loop only a real value shows (the load's check fills in "0"): the request goes on to the site.
      return undefined;
    } finally {
      this.patternsTried = this.patterns.tried - triedBefore;
    }
  }

  /** A chain answers its last target; a loop or a chain past MAX_CHAIN throws, naming its rules' lines. */
  private follow(match: Match, rawQuery: string, seen: number[]): RedirectAnswer {
    const { rule } = match;
    const lines = [...seen, rule.line];
    if (seen.includes(rule.line)) throw new RuleChainError(`redirect rules loop: lines ${lines.join(" → ")}`, lines);
    if (rule.status === 410) return { status: 410, location: undefined, line: lines[0] as number };
    const location = fill(match, rawQuery);
    if (!rule.to?.origin && !isLocalPath(location)) throw new Error(`line ${rule.line} made a target off the site`);
    const next = rule.to?.origin ? undefined : requestPartsOf(location);
    const nextMatch = next && this.match(next);
    if (!next || !nextMatch) return { status: rule.status, location, line: lines[0] as number };
    if (lines.length >= MAX_CHAIN)
      throw new RuleChainError(`redirect chain longer than ${MAX_CHAIN} steps: lines ${lines.join(" → ")}`, lines);
    const last = this.follow(nextMatch, next.rawQuery, lines);
    return last.status === 410 ? last : { ...last, status: rule.status };
  }

  /**
   * Run when loaded: every rule's target (with "0" for what it captures) is looked up once, and the chains those
   * steps make are measured with what is already known, so loops and long chains are found before any request
   * in time that grows with the number of rules, not its square.
   */
  checkChains(): void {
    const next = new Map<number, Rule | undefined>();
    /** The number of rules in the chain starting at a line, once known. */
    const length = new Map<number, number>();
    const step = (rule: Rule): Rule | undefined => {
      if (next.has(rule.line)) return next.get(rule.line);
      let target: Rule | undefined;
      if (rule.status !== 410 && !rule.to?.origin) {
        const captures: Record<string, string> = {};
        const pieces = [...rule.from.segments, ...rule.from.query.flatMap((q) => [q.key, q.value])];
        for (const piece of pieces) if (piece?.name) captures[piece.name] = "0";
        const location = fill({ rule, captures, rest: rule.from.rest ? ["0"] : [] }, "");
        if (!isLocalPath(location)) throw new Error(`line ${rule.line} made a target off the site`);
        const parts = requestPartsOf(location);
        target = parts && this.match(parts)?.rule;
      }
      next.set(rule.line, target);
      return target;
    };
    const measure = (start: Rule) => {
      const path: Rule[] = [];
      const visiting = new Set<number>();
      let rule: Rule | undefined = start;
      let known = 0;
      while (rule) {
        const done = length.get(rule.line);
        if (done !== undefined) {
          known = done;
          break;
        }
        if (visiting.has(rule.line)) {
          const lines = [...path.map((r) => r.line), rule.line];
          throw new RuleChainError(`redirect rules loop: lines ${lines.join(" → ")}`, lines);
        }
        visiting.add(rule.line);
        path.push(rule);
        rule = step(rule);
      }
      for (let i = path.length - 1; i >= 0; i--) {
        known++;
        const lines = path.map((r) => r.line);
        if (known > MAX_CHAIN)
          throw new RuleChainError(
            `redirect chain longer than ${MAX_CHAIN} steps: lines ${lines.slice(0, MAX_CHAIN + 1).join(" → ")}`,
            lines,
          );
        length.set((path[i] as Rule).line, known);
      }
    };
    for (let index = 0; index < this.exactLines.length; index++) measure(this.exactRule(index));
    for (const rule of this.others) measure(rule);
  }
}
