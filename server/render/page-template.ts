/** The document around the rendered app: the built index.html, split once at its placeholders. */
import { dirOf, type Lang } from "../../shared/langs.ts";

export interface PageTemplate {
  /** [before lang, before head, before app, before state, rest] */
  parts: readonly [string, string, string, string, string];
}

interface PageParts {
  /** Written on <html>, with its direction when that is right to left: every page, the not-found one too. */
  lang: Lang;
  head: string;
  appHtml: readonly string[];
  /** Already escaped by serialiseState. */
  stateJson: string;
}

const LANG_ATTR = '<html lang="zh-CN">';
const MARKERS = ["<!--app-head-->", "<!--app-html-->", "<!--app-state-->"] as const;

export function splitTemplate(html: string): PageTemplate {
  const langAt = html.indexOf(LANG_ATTR);
  if (langAt === -1) throw new Error(`page template lacks ${LANG_ATTR}`);
  const cuts = [langAt + '<html lang="'.length, langAt + LANG_ATTR.length - 2];
  const rest = html.slice(cuts[1]);
  const pieces: string[] = [html.slice(0, cuts[0])];
  let remaining = rest;
  for (const marker of MARKERS) {
    const at = remaining.indexOf(marker);
    if (at === -1) throw new Error(`page template lacks ${marker}`);
    pieces.push(remaining.slice(0, at));
    remaining = remaining.slice(at + marker.length);
  }
  pieces.push(remaining);
  const [beforeLang, afterLang, afterHead, afterApp, afterState] = pieces as [string, string, string, string, string];
  return { parts: [beforeLang, afterLang, afterHead, afterApp, afterState] };
}

/** The <html> element's attributes' values: `zh-CN`, or `ar" dir="rtl` for a language written right to left. */
const htmlLangOf = (lang: Lang): string => (dirOf(lang) === "rtl" ? `${lang}" dir="rtl` : lang);

const STATE_SCRIPT_OPEN = '<script id="portal-state" type="application/json">';

/** UTF-8 of the pieces one after another, written straight into one Buffer: no string of the whole page is made. */
function utf8Of(pieces: readonly string[]): Buffer {
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  // Never a slice of Node's shared pool: the caches keep it as it is, without copying it out (prepared-answer.ts's ownBytes).
  const bytes = Buffer.allocUnsafeSlow(length);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at);
  return bytes;
}

/** The page's bytes: the template's pieces around its language, head, app and state. */
export function assemblePage({ parts }: PageTemplate, page: PageParts): Buffer {
  return utf8Of([
    parts[0],
    htmlLangOf(page.lang),
    parts[1],
    page.head,
    parts[2],
    ...page.appHtml,
    parts[3],
    STATE_SCRIPT_OPEN,
    page.stateJson,
    "</script>",
    parts[4],
  ]);
}
