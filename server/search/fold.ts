/**
 * One character with the marks that follow it, as search compares it (docs/behaviour.md#search,
 * "Matching"): the same for the text indexed and the query, so `cafe` finds `café`, `компания`
 * finds `Компания` and `كتاب` finds `كِتَاب`; and Arabic's article, dropped from the folded text.
 */

/** A character and what combines with it: accents, and half-width kana's voicing marks (`ｶﾞ` is `ガ`). */
const CLUSTER = /.[\p{M}\uFF9E\uFF9F]*/suy;
const COMBINING = /[\p{M}\uFF9E\uFF9F]/u;

/** Written in letters that take accents: accents are dropped (Cyrillic keeps the breve of `й`). */
const ACCENTED_SCRIPTS = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u;
const MARK = /\p{M}/gu;
const MARK_NOT_BREVE = /(?!\u0306)\p{M}/gu;

/** Letters that are two letters, or one without an accent to drop, as they are typed without them. */
const LETTERS: Readonly<Record<string, string>> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ð: "d",
  ł: "l",
  ħ: "h",
  þ: "th",
  ı: "i",
  ς: "σ",
};

/**
 * Arabic as it is searched: vowel marks and tatweel dropped, every alef one alef, final ى as ي and
 * ة as ه (how they are often typed), Arabic-Indic digits as ASCII ones.
 */
const ARABIC_MARKS = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E8\u06EA-\u06ED\u0640]/gu;
const ARABIC: Readonly<Record<string, string>> = {
  "\u0622": "\u0627", // آ
  "\u0623": "\u0627", // أ
  "\u0625": "\u0627", // إ
  "\u0671": "\u0627", // ٱ
  "\u0672": "\u0627",
  "\u0673": "\u0627",
  "\u0649": "\u064A", // ى → ي
  "\u0629": "\u0647", // ة → ه
};
const ARABIC_SCRIPT = /[\u0600-\u06FF]/;
const VOWEL_MARKS = /^[\u064B-\u0652\u0670]*$/;

function arabic(text: string): string {
  let out = "";
  for (const char of text.replace(ARABIC_MARKS, "")) {
    const code = char.charCodeAt(0);
    if (code >= 0x0660 && code <= 0x0669) out += String.fromCharCode(code - 0x0660 + 0x30);
    else if (code >= 0x06f0 && code <= 0x06f9) out += String.fromCharCode(code - 0x06f0 + 0x30);
    else out += ARABIC[char] ?? char;
  }
  return out;
}

/**
 * NFKC first (full-width letters and digits are ASCII ones, half-width kana full-width, Arabic
 * presentation forms letters), then lower case; Latin, Greek and Cyrillic without accents; Arabic
 * as above. Chinese, kana and hangul are left as NFKC makes them: decomposing would split them.
 */
export function foldCluster(cluster: string): string {
  // An Arabic letter alone or with vowel marks (none of which compose with it): the common case, made short.
  const first = cluster.charCodeAt(0);
  if (first >= 0x0621 && first <= 0x064a && first !== 0x0640 && VOWEL_MARKS.test(cluster.slice(1)))
    return ARABIC[cluster[0] as string] ?? (cluster[0] as string);
  const lower = cluster.normalize("NFKC").toLowerCase();
  if (ACCENTED_SCRIPTS.test(lower)) {
    const bare = lower.normalize("NFD").replace(/\p{Script=Cyrillic}/u.test(lower) ? MARK_NOT_BREVE : MARK, "");
    let out = "";
    for (const char of bare) out += LETTERS[char] ?? char;
    return out.includes("\u0306") ? out.normalize("NFC") : out;
  }
  if (ARABIC_SCRIPT.test(lower)) return arabic(lower);
  // A mark with nothing before it to combine with says nothing.
  return COMBINING.test(lower[0] ?? "") ? "" : lower;
}

/**
 * Arabic's definite article at a word's start, before two letters or more (so a word of four letters
 * or more): `الكتاب` is searched as `كتاب`. Shorter words keep it (`الم` is a word). Prefixes before
 * it (`وبالكتاب`) are left as written.
 */
const ARTICLE = /(?<![\p{L}\p{N}\p{M}])\u0627\u0644(?=[\u0620-\u064A\u066E-\u06D3\u06FA-\u06FF]{2})/gu;

/**
 * Folded text without Arabic's article; `map` (one entry per unit of `folded`, as text.ts makes it)
 * loses the article's entries, and the word's first letter takes the article's, so a match is
 * marked from the word's start as written.
 */
export function withoutArticles(folded: string, map?: number[]): string {
  if (!folded.includes("\u0627\u0644")) return folded;
  let out = "";
  let from = 0;
  // Entries moved down in place, one at a time: a long text's map is too large to spread.
  let kept = 0;
  const keep = (to: number) => {
    if (map) for (let i = from; i < to; i++) map[kept++] = map[i] as number;
  };
  for (const { index } of folded.matchAll(ARTICLE)) {
    out += folded.slice(from, index);
    keep(index);
    // The word's first letter stands for where the word began, article and all.
    if (map) map[kept++] = map[index] as number;
    out += folded[index + 2];
    from = index + 3;
  }
  out += folded.slice(from);
  keep(folded.length);
  if (map) map.length = kept;
  return out;
}

/** The length in `text` of the character at `at` and the marks that combine with it. */
export function clusterLengthAt(text: string, at: number): number {
  CLUSTER.lastIndex = at;
  return CLUSTER.exec(text)?.[0].length ?? 1;
}

/**
 * A code unit no folding changes and that combines with nothing before it: Chinese, kana and
 * hangul as most of their texts are written (NFKC leaves them, they have no case).
 */
export function foldsToItself(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0x3041 && code <= 0x3096) ||
    (code >= 0x30a1 && code <= 0x30fa) ||
    (code >= 0x30fc && code <= 0x30fe)
  );
}

/** Whether the code unit after a character surely begins another (no mark to gather): what most texts hold. */
export function beginsCluster(next: number): boolean {
  return (
    !(next >= 0x300) ||
    (next >= 0x3000 && next <= 0x3029) ||
    (next >= 0x3031 && next <= 0x3098) ||
    (next >= 0x309b && next <= 0x9fff) ||
    (next >= 0xac00 && next <= 0xd7a3) ||
    (next >= 0x0621 && next <= 0x064a) ||
    (next >= 0xff00 && next <= 0xff9d)
  );
}
