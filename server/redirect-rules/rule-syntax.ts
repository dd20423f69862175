// One redirect rule's `from`, `to` and `status` as written in the rules file, checked and compiled
// (docs/redirects.md#the-rules-file). Throws a RuleSyntaxError saying what is wrong; the file reader adds the line.

export class RuleSyntaxError extends Error {}

/** One path segment or query part: literal text, or a literal prefix, one `:name` and a literal suffix. */
export interface Piece {
  prefix: string;
  name?: string;
  suffix: string;
  /** A query value whose capture `to` places only in its own query (percent-encoded): it may hold `/` (`?s=TCP/IP`). */
  slashes?: boolean;
}

/** A query part of `from`: `name=value` (value a Piece), or a bare key (`/?news/:id.html`), matched with an empty value. */
export interface QueryPart {
  key: Piece;
  value: Piece | undefined;
}

export interface FromPattern {
  segments: Piece[];
  /** A final `*`: the rest of the path, possibly empty. */
  rest: boolean;
  query: QueryPart[];
  /** No `:name`, no `*`: looked up in a map by this decoded path. */
  exact: boolean;
  pathKey?: string;
}

/** Shared by the exact rules without a query, which are found by `pathKey` alone: a large file's memory is mostly theirs. */
const NO_SEGMENTS: Piece[] = [];
const NO_QUERY: QueryPart[] = [];

/** `to` cut into literal text (already safe in a URL) and what `from` captured. */
export type ToPart = { text: string } | { name: string } | { rest: true };

export interface ToTemplate {
  /** A string when nothing is filled in. */
  parts: ToPart[] | string;
  /** Written with a query (or a fragment) of its own: the request's query is not kept. */
  hasQuery: boolean;
  /** `https://host` (its ASCII form) for a target on another site; undefined for a path on this one. */
  origin: string | undefined;
  /** The `:name`s written before `to`'s query (in its path) or in its fragment. */
  namesOutsideQuery?: ReadonlySet<string>;
}

export type RedirectStatus = 301 | 302 | 307 | 308 | 410;

export interface Rule {
  line: number;
  from: FromPattern;
  /** Undefined for 410. */
  to: ToTemplate | undefined;
  status: RedirectStatus;
}

const NAME = /^:([A-Za-z_][A-Za-z0-9_]*)/;
/** What a decoded capture may never hold: a separator a browser would read as one, or a control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
export const UNSAFE_DECODED = /[/\\\u0000-\u001f\u007f]/;
/** What a capture from a query value placed only in the target's query may never hold. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
export const UNSAFE_QUERY_VALUE = /[\\\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const CONTROL = /[\u0000-\u001f\u007f]/;
const STATUSES: readonly RedirectStatus[] = [301, 302, 307, 308, 410];

function decoded(text: string, where: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new RuleSyntaxError(`${where} holds a bad percent-encoding: ${text}`);
  }
}

/** `list_:id.html` → { prefix: "list_", name: "id", suffix: ".html" }; decoded literals, at most one name. */
function pieceOf(text: string, where: string, names: Set<string>): Piece {
  const colon = text.search(/:[A-Za-z_]/);
  if (colon === -1) return { prefix: decoded(text, where), suffix: "" };
  const name = NAME.exec(text.slice(colon))?.[1] as string;
  const suffix = text.slice(colon + 1 + name.length);
  if (/:[A-Za-z_]/.test(suffix)) throw new RuleSyntaxError(`${where} holds more than one :name in "${text}"`);
  if (/^[A-Za-z0-9_]/.test(suffix)) throw new RuleSyntaxError(`${where}: what follows :${name} must not be a letter or digit`);
  if (names.has(name)) throw new RuleSyntaxError(`${where} names :${name} twice`);
  names.add(name);
  return { prefix: decoded(text.slice(0, colon), where), name, suffix: decoded(suffix, where) };
}

/** A request's path segment is decoded and never holds `/`, `\\` or a control character, nor is `.` or `..`: a rule
 * that needs one would never match, so it is refused rather than loaded in silence. */
function refuseUnmatchable(piece: Piece): void {
  const literal = piece.prefix + piece.suffix;
  if (UNSAFE_DECODED.test(literal))
    throw new RuleSyntaxError("from's path holds an encoded / or \\ or a control character in a segment: no request can match it");
  if (piece.name === undefined && (literal === "." || literal === ".."))
    throw new RuleSyntaxError("from's path holds a . or .. segment, which a browser removes: no request can match it");
}

export function parseFrom(raw: string): { from: FromPattern; names: Set<string> } {
  const text = raw.trim();
  if (!text.startsWith("/") || text.startsWith("//") || text.includes("\\"))
    throw new RuleSyntaxError(`from must be a path beginning with one / (got "${text.slice(0, 80)}")`);
  if (/\s|#/.test(text)) throw new RuleSyntaxError("from must hold no spaces and no #");
  const q = text.indexOf("?");
  const path = q === -1 ? text : text.slice(0, q);
  const names = new Set<string>();
  const raws = path.slice(1).split("/");
  const rest = raws.at(-1) === "*";
  if (rest) raws.pop();
  if (raws.some((s) => s.includes("*"))) throw new RuleSyntaxError("from may hold * only as its whole last segment");
  const segments = raws.map((s) => pieceOf(s, "from", names));
  for (const piece of segments) refuseUnmatchable(piece);
  const query: QueryPart[] = [];
  const seen = new Set<string>();
  for (const item of q === -1 ? [] : text.slice(q + 1).split("&")) {
    if (item === "") continue;
    const eq = item.indexOf("=");
    const key = pieceOf(eq === -1 ? item : item.slice(0, eq), "from's query", names);
    if (eq !== -1 && key.name !== undefined) throw new RuleSyntaxError("a query parameter's name in from cannot be a :name");
    const value = eq === -1 ? undefined : pieceOf(item.slice(eq + 1), "from's query", names);
    if (CONTROL.test(key.prefix + key.suffix + (value ? value.prefix + value.suffix : "")))
      throw new RuleSyntaxError("from's query holds a control character, which no request can");
    const id = eq === -1 ? `${key.prefix}:${key.name ?? ""}${key.suffix}` : key.prefix;
    if (seen.has(id)) throw new RuleSyntaxError(`from names the query parameter ${id} twice`);
    seen.add(id);
    query.push({ key, value });
  }
  if (names.size > 0 || rest) return { from: { segments, rest, query, exact: false }, names };
  const pathKey = `/${segments.map((s) => s.prefix).join("/")}`;
  if (query.length === 0) return { from: { segments: NO_SEGMENTS, rest, query: NO_QUERY, exact: true, pathKey }, names };
  return { from: { segments, rest, query, exact: true, pathKey }, names };
}

/** Percent-encodes what may not stand in a URL as written (non-ASCII, spaces, quotes), leaving `%XX` as it is. */
export function urlSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#%]+/g, (run) => encodeURI(run).replace(/%25/g, "%"));
}

export function parseTo(raw: string, names: ReadonlySet<string>, hasRest: boolean): ToTemplate {
  const text = raw.trim();
  let origin: string | undefined;
  let body = text;
  const absolute = /^https?:\/\//i.exec(text);
  if (absolute) {
    const hostEnd = text.indexOf("/", absolute[0].length);
    const head = hostEnd === -1 ? text : text.slice(0, hostEnd);
    let url: URL;
    try {
      url = new URL(head);
    } catch {
      throw new RuleSyntaxError(`to is not a URL: ${text.slice(0, 80)}`);
    }
    if (url.username || url.password || /[*?#\\]/.test(head) || /:[A-Za-z_]/.test(head.slice(absolute[0].length)))
      throw new RuleSyntaxError(`to's host must be written out in full, with nothing filled in: ${text.slice(0, 80)}`);
    // As a header may carry it: a host in another script in its ASCII form (xn--).
    origin = url.origin;
    body = hostEnd === -1 ? "/" : text.slice(hostEnd);
  } else if (!text.startsWith("/") || text.startsWith("//") || text.startsWith("/\\")) {
    throw new RuleSyntaxError(`to must be a path beginning with one / or an absolute http(s) URL (got "${text.slice(0, 80)}")`);
  }
  // A browser reads \ as /, and control characters end or split a header.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\\\u0000-\u001f\u007f\s]/.test(body)) throw new RuleSyntaxError("to must hold no backslash, space or control character");
  const parts: ToPart[] = [];
  const namesOutsideQuery = new Set<string>();
  let inQuery = false;
  let fragment = false;
  let literal = "";
  for (let i = 0; i < body.length; ) {
    const name = body[i] === ":" ? NAME.exec(body.slice(i))?.[1] : undefined;
    // A `?` in the fragment starts no query.
    if (body[i] === "#") fragment = true;
    else if (body[i] === "?" && !fragment) inQuery = true;
    if (name !== undefined) {
      if (!names.has(name)) throw new RuleSyntaxError(`to uses :${name}, which from does not capture`);
      if (!inQuery || fragment) namesOutsideQuery.add(name);
      if (literal) parts.push({ text: urlSafe(literal) });
      literal = "";
      parts.push({ name });
      i += name.length + 1;
    } else if (body[i] === "*") {
      if (!hasRest) throw new RuleSyntaxError("to uses *, but from does not end in *");
      if (literal) parts.push({ text: urlSafe(literal) });
      literal = "";
      parts.push({ rest: true });
      i += 1;
    } else {
      literal += body[i];
      i += 1;
    }
  }
  if (literal) parts.push({ text: urlSafe(literal) });
  const only = parts[0];
  const fixed = parts.length === 1 && only !== undefined && "text" in only ? only.text : parts.length === 0 ? "" : undefined;
  // A fragment ends the URL: nothing can be added after it, so the request's query is not kept.
  return { parts: fixed ?? parts, hasQuery: body.includes("?") || body.includes("#"), origin, namesOutsideQuery };
}

export function parseStatus(raw: string): RedirectStatus {
  const text = raw.trim();
  if (text === "") return 301;
  const status = Number(text) as RedirectStatus;
  if (!/^\d{3}$/.test(text) || !STATUSES.includes(status))
    throw new RuleSyntaxError(`status must be 301, 302, 307, 308, 410 or empty (got "${text.slice(0, 20)}")`);
  return status;
}

export function parseRule(line: number, fromText: string, toText: string, statusText: string): Rule {
  const status = parseStatus(statusText);
  const { from, names } = parseFrom(fromText);
  if (status === 410) {
    if (toText.trim() !== "") throw new RuleSyntaxError("a 410 rule (gone) has no to");
    return { line, from, to: undefined, status };
  }
  if (toText.trim() === "") throw new RuleSyntaxError(`a ${status} rule needs a to`);
  const to = parseTo(toText, names, from.rest);
  for (const { value } of from.query) {
    if (value?.name !== undefined && !to.namesOutsideQuery?.has(value.name)) value.slashes = true;
  }
  return { line, from, to, status };
}
