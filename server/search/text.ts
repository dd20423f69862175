/** Search text without a dictionary: normalising, tokens and queries (docs/decisions/0010-search-index-of-our-own.md). */
import { createRequire } from "node:module";
import { beginsCluster, clusterLengthAt, foldCluster, foldsToItself, withoutArticles } from "./fold.ts";

type Convert = (text: string) => string;

let converters: Convert[] | undefined;

/** The converters are loaded on first use: they are large (docs/decisions/0010-search-index-of-our-own.md). */
function toSimplified(text: string): string {
  if (!converters) {
    const OpenCC = createRequire(import.meta.url)("opencc-js/t2cn") as {
      Converter(options: { from: string; to: string }): Convert;
    };
    converters = ["t", "tw", "hk"].map((from) => OpenCC.Converter({ from, to: "cn" }));
  }
  let out = text;
  for (const convert of converters) out = convert(out);
  return out;
}

/**
 * Bump when what the index holds of a text changes (normalising, tokens): an index written by
 * another version is built again (index-schema.ts).
 */
export const TOKENS_VERSION = "3";

/**
 * Written without spaces between words (or, for hangul, with words that take endings), so indexed
 * by pieces; with the kana's long-vowel and iteration marks, which Unicode files under no script.
 */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u3006\u3031-\u3035\u30FC]/u;
const WORD = /[\p{L}\p{N}\p{M}]/u;
const NOT_ASCII = /[\u0080-\uffff]/;

/** The folded text, and `map` (when given) filled with the index in `text` of the character that gave each of its units. */
function fold(text: string, map?: number[]): string {
  let out = "";
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    // Most characters of most texts: ASCII (lower case alone), or Chinese, kana, hangul as they are.
    if ((code < 0x80 || foldsToItself(code)) && beginsCluster(text.charCodeAt(at + 1))) {
      out += code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : (text[at] as string);
      map?.push(at);
      at++;
      continue;
    }
    const length = clusterLengthAt(text, at);
    const piece = foldCluster(text.slice(at, at + length));
    out += piece;
    if (map) for (let i = 0; i < piece.length; i++) map.push(at);
    at += length;
  }
  return withoutArticles(out, map);
}

/**
 * `map[i]` is the index in `text` of the character that gave `out[i]` (the start of its cluster:
 * a mark runs to the cluster's end, `clusterLengthAt`), to mark matches in the original.
 */
export function normaliseMapped(text: string): { out: string; map: number[] } {
  const map: number[] = [];
  const out = fold(text, map);
  if (!NOT_ASCII.test(out)) return { out, map };
  const simplified = toSimplified(out);
  // Character for character in practice; one that changed the length keeps the unconverted mapping.
  return simplified.length === out.length ? { out: simplified, map } : { out, map };
}

export function normalise(text: string): string {
  const out = fold(text);
  return NOT_ASCII.test(out) ? toSimplified(out) : out;
}

function runsOf(normalised: string): { text: string; cjk: boolean }[] {
  const runs: { text: string; cjk: boolean }[] = [];
  let current = "";
  let cjk = false;
  const flush = () => {
    if (current !== "") runs.push({ text: current, cjk });
    current = "";
  };
  for (const char of normalised) {
    let kind: boolean;
    if (CJK.test(char)) kind = true;
    else if (/\p{M}/u.test(char) && current !== "")
      kind = cjk; // a combining mark stays with what it follows
    else if (WORD.test(char)) kind = false;
    else {
      flush();
      continue;
    }
    if (current !== "" && kind !== cjk) flush();
    cjk = kind;
    current += char;
  }
  flush();
  return runs;
}

/**
 * First the stream a query phrase must match (pairs, lone characters, words), then every Chinese
 * character alone; a run's pairs are consecutive, so a phrase matches only a whole run.
 */
export function indexTokens(text: string): string {
  const stream: string[] = [];
  const singles: string[] = [];
  for (const run of runsOf(normalise(text))) {
    if (!run.cjk) {
      stream.push(run.text);
      continue;
    }
    const chars = [...run.text];
    if (chars.length === 1) stream.push(chars[0] as string);
    for (let i = 0; i + 1 < chars.length; i++) stream.push(`${chars[i]}${chars[i + 1]}`);
    singles.push(...chars);
  }
  return [...stream, ...singles].join(" ");
}

export interface QueryTerm {
  text: string;
  cjk: boolean;
  /** A one-letter Latin word: matched as a whole word, not as the start of every word it begins. */
  whole?: boolean;
}

/**
 * What one query may ask of the index, in pieces read (a word or lone character is one, a
 * Chinese run one per pair): past it, later terms are left out and a long run is cut, so no
 * query costs more than a few ordinary ones (docs/behaviour.md#search, "Bounded").
 */
export const QUERY_PIECES = 6;

export function queryTerms(q: string): QueryTerm[] {
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  let pieces = 0;
  for (const run of runsOf(normalise(q))) {
    if (pieces >= QUERY_PIECES) break;
    let { text } = run;
    if (run.cjk) {
      const chars = [...text];
      // A run of n characters is the phrase of its n - 1 pairs.
      if (chars.length - 1 > QUERY_PIECES - pieces) text = chars.slice(0, QUERY_PIECES - pieces + 1).join("");
    }
    if (seen.has(text)) continue;
    seen.add(text);
    const size = run.cjk ? Math.max(1, [...text].length - 1) : 1;
    pieces += size;
    terms.push(!run.cjk && [...text].length === 1 ? { text, cjk: false, whole: true } : { text, cjk: run.cjk });
  }
  return terms;
}

/** Every term required: a Chinese run the phrase of its pairs, a word a prefix; undefined with no term. */
export function matchExpression(terms: readonly QueryTerm[], column?: string): string | undefined {
  if (terms.length === 0) return undefined;
  const parts = terms.map(({ text, cjk, whole }) => {
    if (!cjk) return whole ? `"${text}"` : `"${text}"*`;
    const chars = [...text];
    if (chars.length === 1) return `"${text}"`;
    return `"${chars
      .slice(0, -1)
      .map((c, i) => `${c}${chars[i + 1]}`)
      .join(" ")}"`;
  });
  const all = parts.join(" AND ");
  return column ? `{${column}} : (${all})` : all;
}
