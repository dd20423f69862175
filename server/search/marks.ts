/**
 * A result's matches marked in its original text, found in the normalised text and mapped
 * back (`處理` is marked for `处理`), and its snippet (docs/behaviour.md#search, "Answers").
 */
import { MARK_END, MARK_START } from "../../shared/search.ts";
import { clusterLengthAt } from "./fold.ts";
import { CJK, normaliseMapped, type QueryTerm } from "./text.ts";

const SNIPPET_CHARS = 120;
const BEFORE_MATCH = 30;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const MARKS = /[\uE000\uE001]/gu;

/** Chinese anywhere, a word at a word's start (to the word's end). */
function matchRanges(norm: string, terms: readonly QueryTerm[], limit = Number.POSITIVE_INFINITY): [number, number][] {
  const ranges: [number, number][] = [];
  for (const term of terms) {
    let from = 0;
    while (ranges.length < limit) {
      const at = norm.indexOf(term.text, from);
      if (at === -1) break;
      from = at + term.text.length;
      if (term.cjk) {
        ranges.push([at, from]);
        continue;
      }
      if (at > 0 && isWordChar(charEndingAt(norm, at))) continue;
      if (term.whole && from < norm.length && isWordChar(String.fromCodePoint(norm.codePointAt(from) ?? 0))) continue;
      let end = from;
      while (end < norm.length) {
        const char = String.fromCodePoint(norm.codePointAt(end) ?? 0);
        if (!isWordChar(char)) break;
        end += char.length;
      }
      ranges.push([at, end]);
      from = end;
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** A Latin word ends where Chinese begins. */
const isWordChar = (char: string) => WORD_CHAR.test(char) && !CJK.test(char);

function charEndingAt(text: string, at: number): string {
  const low = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text.slice(at - 1, at);
}

/** Marks the text held are dropped first. */
export function markAll(text: string, terms: readonly QueryTerm[]): string {
  const clean = text.replace(MARKS, "");
  const { out, map } = normaliseMapped(clean);
  return applyMarks(clean, matchRanges(out, terms), map);
}

/** Each range widened to whole characters of the original, with their accents and marks. */
function applyMarks(text: string, ranges: readonly [number, number][], map: readonly number[]): string {
  let out = "";
  let at = 0;
  for (const [start, end] of ranges) {
    const from = Math.max(map[start] ?? text.length, at);
    const last = map[end - 1] ?? text.length;
    const to = Math.max(from, last + clusterLengthAt(text, last));
    out += text.slice(at, from) + MARK_START + text.slice(from, to) + MARK_END;
    at = to;
  }
  return out + text.slice(at);
}

let graphemes: Intl.Segmenter | undefined;

function boundaryAtOrBefore(text: string, at: number): number {
  if (at <= 0) return 0;
  if (at >= text.length) return text.length;
  graphemes ??= new Intl.Segmenter("und", { granularity: "grapheme" });
  // A cluster is short: a window before `at` reaches its start.
  const from = Math.max(0, at - 32);
  let best = from;
  for (const { index } of graphemes.segment(text.slice(from, at + 32))) {
    if (from + index > at) break;
    best = from + index;
  }
  return best;
}

interface SnippetSource {
  text: string;
  norm: string;
  aligned: boolean;
}

export function snippetOf(sources: readonly SnippetSource[], terms: readonly QueryTerm[]): string {
  for (const source of sources) {
    const clean = source.text.includes(MARK_START) || source.text.includes(MARK_END) ? source.text.replace(MARKS, "") : source.text;
    const sameIndexes = source.aligned && clean === source.text;
    const first = matchRanges(sameIndexes ? source.norm : normaliseMapped(clean).out, terms, 1)[0];
    if (!first) continue;
    const at = sameIndexes ? first[0] : (normaliseMapped(clean).map[first[0]] ?? 0);
    return windowOf(clean, at, terms);
  }
  const shown = sources.find((s) => s.text.trim() !== "");
  return shown ? windowOf(shown.text.replace(MARKS, ""), 0, terms) : "";
}

function windowOf(text: string, matchAt: number, terms: readonly QueryTerm[]): string {
  let start = boundaryAtOrBefore(text, Math.max(0, matchAt - BEFORE_MATCH));
  if (start > 0 && text.length - start < SNIPPET_CHARS) start = boundaryAtOrBefore(text, Math.max(0, text.length - SNIPPET_CHARS));
  const end = boundaryAtOrBefore(text, start + SNIPPET_CHARS);
  const piece = text.slice(start, end).trim();
  return (start > 0 ? "…" : "") + markAll(piece, terms) + (end < text.length ? "…" : "");
}
