/**
 * Search text without a dictionary (docs/behaviour.md#search): text is normalised (NFKC,
 * lower case, Traditional to Simplified), Chinese is indexed as overlapping two-character
 * pieces plus single characters and other scripts as words; a query becomes FTS5 phrases
 * of the same pieces, so any run of characters inside a longer word is found.
 */
import { createRequire } from "node:module";

type Convert = (text: string) => string;

let converters: Convert[] | undefined;

/** Traditional → Simplified (OpenCC's standard, Taiwan and Hong Kong forms), loaded once, on first use (about 25 MB). */
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

/** Han, kana and hangul: written without spaces between words, so indexed by pieces. */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}\p{M}]/u;
const NOT_ASCII = /[\u0080-\uffff]/;

/**
 * Text as it is indexed and searched: NFKC (full-width forms are half-width ones), lower
 * case, Simplified. `map[i]` is the index in `text` of the character that gave `out[i]`,
 * so a match found in `out` can be marked in the original.
 */
export function normaliseMapped(text: string): { out: string; map: number[] } {
  let out = "";
  const map: number[] = [];
  let at = 0;
  for (const char of text) {
    const piece = NOT_ASCII.test(char) ? char.normalize("NFKC").toLowerCase() : char.toLowerCase();
    out += piece;
    for (let i = 0; i < piece.length; i++) map.push(at);
    at += char.length;
  }
  if (!NOT_ASCII.test(out)) return { out, map };
  const simplified = toSimplified(out);
  // Character-for-character in practice; a conversion that changed the length keeps the unconverted text's mapping.
  return simplified.length === out.length ? { out: simplified, map } : { out, map };
}

/** The normalised text alone (indexing and queries need no mapping). */
export function normalise(text: string): string {
  const lower = text.normalize("NFKC").toLowerCase();
  return NOT_ASCII.test(lower) ? toSimplified(lower) : lower;
}

/** Runs of normalised text: Chinese (and other unspaced scripts) runs and words; everything else separates them. */
export function runsOf(normalised: string): { text: string; cjk: boolean }[] {
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
 * The tokens of a text as one FTS5 column holds them, separated by spaces: first the
 * stream in which a query phrase must match (each Chinese run's overlapping pairs, a
 * lone character as itself, and words), then every Chinese character alone, for
 * one-character queries. Pairs of one run are consecutive, so a phrase of pairs matches
 * only a run that holds the whole query.
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
  /** Normalised text of the term. */
  text: string;
  cjk: boolean;
}

/** The terms of a query: each Chinese run and each word, in order, once each. */
export function queryTerms(q: string): QueryTerm[] {
  const seen = new Set<string>();
  return runsOf(normalise(q)).filter((run) => !seen.has(run.text) && seen.add(run.text));
}

/**
 * The FTS5 MATCH expression of a query's terms, every term required: a Chinese run of
 * n ≥ 2 characters is the phrase of its n - 1 pairs, one character is itself, a word is a
 * prefix (`robo` finds `robotics`). Undefined when the query has no term.
 */
export function matchExpression(terms: readonly QueryTerm[], column?: string): string | undefined {
  if (terms.length === 0) return undefined;
  const parts = terms.map(({ text, cjk }) => {
    if (!cjk) return `"${text}"*`;
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
