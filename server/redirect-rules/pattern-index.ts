// The pattern rules as a tree of path segments (docs/redirects.md#bounded-work): a lookup walks the request's segments,
// never the rules, and the first rule in file order among those that match wins.
import type { Piece, Rule } from "./rule-syntax.ts";

/** Rules ending at one node: those without a query (only the first can ever win) and those with one. */
class Ending {
  plain: Rule | undefined;
  /** By the literal name of the rule's first query parameter, in file order. */
  readonly byKey = new Map<string, Rule[]>();
  /** A first query part whose key is a `:name` (PbootCMS's `/?news/:id.html`). */
  readonly other: Rule[] = [];

  add(rule: Rule): void {
    const first = rule.from.query[0];
    if (!first) {
      this.plain ??= rule;
      return;
    }
    if (first.key.name !== undefined) {
      this.other.push(rule);
      return;
    }
    const list = this.byKey.get(first.key.prefix);
    if (list) list.push(rule);
    else this.byKey.set(first.key.prefix, [rule]);
  }
}

/** `:name` children with the same literal prefix, by their literal suffix. */
interface ParamGroup {
  bySuffix: Map<string, Node>;
  /** The distinct suffix lengths, so a segment is cut a few ways rather than every way. */
  suffixLengths: number[];
}

/** Its maps made when first needed: a large file's tree is mostly leaves. */
class Node {
  literal: Map<string, Node> | undefined;
  params: Map<string, ParamGroup> | undefined;
  /** The distinct prefix lengths of `params`, ascending. */
  prefixLengths: number[] | undefined;
  /** Rules whose path ends here, and those ending here in a final `*`. */
  end: Ending | undefined;
  rest: Ending | undefined;
  /** The earliest line of any rule below: a branch that cannot beat the best match found is not walked. */
  minLine = Number.POSITIVE_INFINITY;

  child(piece: Piece): Node {
    if (piece.name === undefined) {
      this.literal ??= new Map();
      let next = this.literal.get(piece.prefix);
      if (!next) {
        next = new Node();
        this.literal.set(piece.prefix, next);
      }
      return next;
    }
    this.params ??= new Map();
    let group = this.params.get(piece.prefix);
    if (!group) {
      group = { bySuffix: new Map(), suffixLengths: [] };
      this.params.set(piece.prefix, group);
      this.prefixLengths = addLength(this.prefixLengths ?? [], piece.prefix.length);
    }
    let next = group.bySuffix.get(piece.suffix);
    if (!next) {
      next = new Node();
      group.bySuffix.set(piece.suffix, next);
      group.suffixLengths = addLength(group.suffixLengths, piece.suffix.length);
    }
    return next;
  }
}

function addLength(lengths: number[], length: number): number[] {
  if (!lengths.includes(length)) {
    lengths.push(length);
    lengths.sort((a, b) => a - b);
  }
  return lengths;
}

/** What a walk is given: the request's decoded segments and query parameter names, and a rule's full check. */
export interface PatternRequest {
  segments: readonly string[];
  queryKeys: readonly string[];
}

export class PatternIndex {
  private readonly root = new Node();
  /** How many rules lookups have checked in full, ever: what they cost, counted rather than timed. */
  tried = 0;

  add(rule: Rule): void {
    let node = this.root;
    node.minLine = Math.min(node.minLine, rule.line);
    for (const piece of rule.from.segments) {
      node = node.child(piece);
      node.minLine = Math.min(node.minLine, rule.line);
    }
    if (rule.from.rest) {
      node.rest ??= new Ending();
      node.rest.add(rule);
    } else {
      node.end ??= new Ending();
      node.end.add(rule);
    }
  }

  /** The first rule in file order for which `tryRule` finds a match, walking only the branches the path follows. */
  find<M extends { rule: Rule }>(req: PatternRequest, tryRule: (rule: Rule) => M | undefined): M | undefined {
    let best: M | undefined;
    const consider = (ending: Ending | undefined) => {
      if (!ending) return;
      /** True when the walk down this list is over: a match, or rules later than the best one. */
      const attempt = (rule: Rule) => {
        if (best && best.rule.line <= rule.line) return true;
        this.tried++;
        const found = tryRule(rule);
        if (found) best = found;
        return found !== undefined;
      };
      if (ending.plain) attempt(ending.plain);
      for (const key of req.queryKeys) {
        for (const rule of ending.byKey.get(key) ?? []) if (attempt(rule)) break;
      }
      for (const rule of ending.other) if (attempt(rule)) break;
    };
    const walk = (node: Node, depth: number) => {
      if (best && best.rule.line <= node.minLine) return;
      consider(node.rest);
      if (depth === req.segments.length) {
        consider(node.end);
        return;
      }
      const segment = req.segments[depth] as string;
      const literal = node.literal?.get(segment);
      if (literal) walk(literal, depth + 1);
      if (!node.params || !node.prefixLengths) return;
      for (const prefixLength of node.prefixLengths) {
        if (prefixLength >= segment.length) break;
        const group = node.params.get(segment.slice(0, prefixLength));
        if (!group) continue;
        for (const suffixLength of group.suffixLengths) {
          // What `:name` holds is never empty.
          if (prefixLength + suffixLength >= segment.length) break;
          const next = group.bySuffix.get(segment.slice(segment.length - suffixLength));
          if (next) walk(next, depth + 1);
        }
      }
    };
    walk(this.root, 0);
    return best;
  }
}
