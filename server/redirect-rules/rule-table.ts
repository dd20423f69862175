// The loaded rules, indexed so a lookup costs the same with 10 rules or 100,000 (docs/redirects.md#matching):
// exact rules in maps, patterns in a tree of segments. Chains are followed here, at most MAX_CHAIN steps.
import { PatternIndex } from "./pattern-index.ts";
import { type Piece, type RedirectStatus, type Rule, UNSAFE_DECODED, UNSAFE_QUERY_VALUE, urlSafe } from "./rule-syntax.ts";

export const MAX_CHAIN = 10;
/** Past these a request is never redirected: bounded work whatever a client sends (the URL bound answers 414 later). */
const MAX_URL_CHARS = 4096;
const MAX_SEGMENTS = 64;
const MAX_QUERY_ITEMS = 64;
/** A parameter the request names more than once (`?aid=1&aid=2`): never matched, as neither value is the one. */
const MANY = Symbol("many");

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

interface RequestParts {
  /** Percent-decoded. */
  segments: string[];
  pathKey: string;
  /** Undefined: not readable (bad encoding, too many parameters): rules with a query do not match. */
  query: Map<string, string | typeof MANY> | undefined;
  items: readonly [string, string][];
  rawQuery: string;
}

interface Match {
  rule: Rule;
  captures: Record<string, string>;
  rest: string[];
}

function decodeSegment(raw: string): string | undefined {
  try {
    const value = decodeURIComponent(raw);
    return UNSAFE_DECODED.test(value) ? undefined : value;
  } catch {
    return undefined;
  }
}

function decodeQueryPart(raw: string): string {
  return decodeURIComponent(raw.replace(/\+/g, " "));
}

const NO_PARAMETERS: Pick<RequestParts, "query" | "items"> = { query: new Map(), items: [] };

function queryOf(raw: string): Pick<RequestParts, "query" | "items"> {
  if (raw === "") return NO_PARAMETERS;
  const parts = raw.split("&", MAX_QUERY_ITEMS + 1);
  if (parts.length > MAX_QUERY_ITEMS) return { query: undefined, items: [] };
  const query = new Map<string, string | typeof MANY>();
  const items: [string, string][] = [];
  try {
    for (const part of parts) {
      if (part === "") continue;
      const eq = part.indexOf("=");
      const key = decodeQueryPart(eq === -1 ? part : part.slice(0, eq));
      const value = eq === -1 ? "" : decodeQueryPart(part.slice(eq + 1));
      query.set(key, query.has(key) ? MANY : value);
      items.push([key, value]);
    }
  } catch {
    return { query: undefined, items: [] };
  }
  return { query, items };
}

/** Undefined for a URL no rule may match: not a path, too long, or a segment that decodes to a separator. */
export function requestPartsOf(url: string): RequestParts | undefined {
  if (url.length > MAX_URL_CHARS || url.charCodeAt(0) !== 47 /* / */) return undefined;
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const raws = path.slice(1).split("/", MAX_SEGMENTS + 1);
  if (raws.length > MAX_SEGMENTS) return undefined;
  const segments: string[] = [];
  for (const raw of raws) {
    const segment = raw.includes("%") ? decodeSegment(raw) : raw.includes("\\") ? undefined : raw;
    if (segment === undefined) return undefined;
    segments.push(segment);
  }
  const rawQuery = q === -1 ? "" : url.slice(q + 1);
  return { segments, pathKey: `/${segments.join("/")}`, rawQuery, ...queryOf(rawQuery) };
}

function matchPiece(piece: Piece, text: string, captures: Record<string, string>): boolean {
  if (piece.name === undefined) return text === piece.prefix;
  const { prefix, suffix } = piece;
  if (text.length <= prefix.length + suffix.length || !text.startsWith(prefix) || !text.endsWith(suffix)) return false;
  const value = text.slice(prefix.length, text.length - suffix.length);
  if (value === "." || value === ".." || (piece.slashes ? UNSAFE_QUERY_VALUE : UNSAFE_DECODED).test(value)) return false;
  captures[piece.name] = value;
  return true;
}

function matchRule(rule: Rule, req: RequestParts): Match | undefined {
  const { segments, rest, query } = rule.from;
  const count = req.segments.length;
  if (rest ? count < segments.length : count !== segments.length) return undefined;
  const captures: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    if (!matchPiece(segments[i] as Piece, req.segments[i] as string, captures)) return undefined;
  }
  if (query.length > 0) {
    if (!req.query) return undefined;
    for (const { key, value } of query) {
      if (value !== undefined) {
        const given = req.query.get(key.prefix);
        if (typeof given !== "string" || !matchPiece(value, given, captures)) return undefined;
      } else if (key.name === undefined) {
        if (req.query.get(key.prefix) !== "") return undefined;
      } else if (!req.items.some(([k, v]) => v === "" && req.query?.get(k) === "" && matchPiece(key, k, captures))) {
        return undefined;
      }
    }
  }
  const restSegments = rest ? req.segments.slice(segments.length) : [];
  // A rest beginning with an empty segment would begin with "/": `/*` could then write `//host`.
  if (restSegments.length > 1 && restSegments[0] === "") return undefined;
  return { rule, captures, rest: restSegments };
}

function fill(match: Match, rawQuery: string): string {
  const to = match.rule.to;
  if (!to) throw new Error("a 410 rule has no target");
  let out = to.origin ?? "";
  if (typeof to.parts === "string") out += to.parts;
  else
    for (const part of to.parts) {
      if ("text" in part) out += part.text;
      else if ("name" in part) out += encodeURIComponent(match.captures[part.name] ?? "");
      else out += match.rest.map(encodeURIComponent).join("/");
    }
  if (!to.hasQuery && match.rule.from.query.length === 0 && rawQuery !== "") out += `?${urlSafe(rawQuery).replace(/#/g, "%23")}`;
  return out;
}

/** A path on this site, and never one a browser would read as another host's. */
const isLocalPath = (location: string) => location[0] === "/" && location[1] !== "/" && location[1] !== "\\";

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
