// One rule against one request: its pieces matched and captured, and its target filled in (docs/redirects.md#matching).
import type { RequestParts } from "./request-parts.ts";
import { type Piece, type Rule, UNSAFE_DECODED, UNSAFE_QUERY_VALUE, urlSafe } from "./rule-syntax.ts";

export interface Match {
  rule: Rule;
  captures: Record<string, string>;
  rest: string[];
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

export function matchRule(rule: Rule, req: RequestParts): Match | undefined {
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

export function fill(match: Match, rawQuery: string): string {
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
export const isLocalPath = (location: string) => location[0] === "/" && location[1] !== "/" && location[1] !== "\\";
