/**
 * On the server: the header and the footer depend on the site's data and the page's language, not on the
 * page, so each is rendered once per site version and language, kept, and spliced into every page's HTML
 * (docs/architecture.md#reused-parts). A part is kept only once a page rendered with it came out byte for
 * byte as the same page rendered in place.
 */
import { type ComponentType, createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { Router } from "wouter";
import { shellKeys } from "../../shared/page-data.ts";
import type { PageState, PartsUsed } from "../../shared/page-state.ts";
import { BASE_PATH, splitLangPath } from "../../shared/routes.ts";
import { PageStateContext } from "../data/page-state-context.tsx";
import { LanguageSwitch } from "../shell/language.tsx";
import {
  CURRENT_HOLE,
  type ImageProps,
  type KeptPart,
  type PartMode,
  PartModeContext,
  type PartName,
  STAND_IN_TAG,
  SWITCH_HOLE,
  standInId,
  targetOfHoleCode,
} from "./part-mode.tsx";

/** No page's path: whatever of a part still depended on the page would differ from it in place, and not be kept. */
const NO_PAGE_PATH = `${BASE_PATH}/${CURRENT_HOLE}`;
/** Site versions times languages times parts: old versions go first. */
const MAX_KEPT = 64;
/** Where a kept part holds the page's own: a menu link's `aria-current`, the language switch. */
type Segment = string | { current: string } | { switch: true };

interface Kept extends KeptPart {
  segments: Segment[];
}

/** Null: the part rendered apart did not come out as in place for this version; it renders in place, tried no more. */
type KeptOrNot = Kept | null;

export interface PageInput {
  path: string;
  search: string;
  state: PageState;
}

const nonce = crypto.randomUUID();
const kept = new Map<string, KeptOrNot>();
const configJson = new WeakMap<object, string>();
const STAND_IN_END = `</${STAND_IN_TAG}>`;
const HOLES = new RegExp(
  `<${STAND_IN_TAG} data-n="${standInId(nonce, SWITCH_HOLE)}"></${STAND_IN_TAG}>| aria-current="${CURRENT_HOLE}([0-9a-f]*)"`,
  "g",
);
const LEADING_LINKS = /^(?:<link [^>]*\/>)+/;
const IMG = /<img ([^>]*?)\/?>/g;
const ATTRIBUTE = /([A-Za-z-]+)="([^"]*)"/g;
/** The attributes React's preload of an image reads. */
const PRELOADED = new Set(["src", "srcSet", "sizes", "loading", "fetchPriority", "crossOrigin", "integrity", "type", "referrerPolicy"]);
const ENTITIES: Record<string, string> = { "&amp;": "&", "&quot;": '"', "&#x27;": "'", "&lt;": "<", "&gt;": ">" };

/** What a part reads of the page's state: its language, the site's configuration and the shell's answers. */
function shellStateOf(state: PageState): PageState {
  const pick = <T,>(from: Record<string, T>) =>
    Object.fromEntries(shellKeys(state.config.classify).flatMap((key) => (key in from ? [[key, from[key] as T]] : [])));
  return { lang: state.lang, translated: false, config: state.config, fallback: pick(state.fallback), failures: pick(state.failures) };
}

function versionKeyOf(shell: PageState): string {
  let config = configJson.get(shell.config);
  if (config === undefined) {
    config = JSON.stringify(shell.config);
    configJson.set(shell.config, config);
  }
  return `${shell.lang}\n${config}\n${JSON.stringify(shell.fallback)}\n${JSON.stringify(shell.failures)}`;
}

function inContext(state: PageState, ssrPath: string, ssrSearch: string, node: ReactNode, mode: PartMode | null = null): string {
  return renderToString(
    <PartModeContext value={mode}>
      <Router base={BASE_PATH} ssrPath={ssrPath} ssrSearch={ssrSearch}>
        <PageStateContext value={state}>{node}</PageStateContext>
      </Router>
    </PartModeContext>,
  );
}

const unescaped = (value: string) => value.replace(/&(?:amp|quot|#x27|lt|gt);/g, (entity) => ENTITIES[entity] as string);

function imagesOf(html: string): ImageProps[] {
  return Array.from(html.matchAll(IMG), ([, attributes]) =>
    Object.fromEntries(
      Array.from((attributes as string).matchAll(ATTRIBUTE))
        .filter(([, name]) => PRELOADED.has(name as string))
        .map(([, name, value]) => [name as string, unescaped(value as string)]),
    ),
  );
}

/** A part rendered on its own, with holes where it shows the page; undefined if React would preload it otherwise. */
function renderApart(shell: PageState, inPlace: ComponentType<never>, props: object): Kept | undefined {
  const html = inContext(shell, NO_PAGE_PATH, "", createElement(inPlace, props as never), { kind: "apart", nonce });
  // React's preloads of the part's images open it; rendered in a page, the stand-in's images make them there.
  const body = html.replace(LEADING_LINKS, "");
  // An image in <picture> or <noscript> is not preloaded: the stand-in could not say so.
  if (/<(?:picture|noscript)[\s>]/.test(body)) return undefined;
  const segments: Segment[] = [];
  let from = 0;
  for (const hole of body.matchAll(HOLES)) {
    segments.push(body.slice(from, hole.index));
    segments.push(hole[1] === undefined ? { switch: true } : { current: targetOfHoleCode(hole[1]) });
    from = hole.index + hole[0].length;
  }
  segments.push(body.slice(from));
  return { images: imagesOf(body), segments };
}

function filled({ segments }: Kept, page: PageInput, switchHtml: () => string): string {
  const here = splitLangPath(page.path).path;
  let html = "";
  for (const segment of segments)
    html +=
      typeof segment === "string" ? segment : "switch" in segment ? switchHtml() : segment.current === here ? ' aria-current="page"' : "";
  return html;
}

/** The page's HTML with each stand-in replaced by its part, in one pass: in pieces, which joined are the page's HTML. */
function spliced(html: string, parts: { part: PartName; html: () => string }[]): string[] {
  const found = parts
    .map(({ part, html: partHtml }) => ({ at: html.indexOf(`<${STAND_IN_TAG} data-n="${standInId(nonce, part)}">`), partHtml }))
    .filter(({ at }) => at !== -1)
    .sort((a, b) => a.at - b.at);
  const pieces: string[] = [];
  let from = 0;
  for (const { at, partHtml } of found) {
    pieces.push(html.slice(from, at), partHtml());
    from = html.indexOf(STAND_IN_END, at) + STAND_IN_END.length;
  }
  pieces.push(html.slice(from));
  return pieces;
}

function keep(key: string, part: KeptOrNot): void {
  kept.delete(key);
  kept.set(key, part);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
}

/**
 * The page's app HTML, `renderPage` rendering the app in the mode given: with the parts kept for its site version
 * and language, or with them in place, kept for the next pages once they are found to come out the same.
 */
export function renderWithKeptParts(page: PageInput, renderPage: (mode: PartMode) => string): { html: string[]; parts: PartsUsed } {
  if (page.state.preview) {
    // A draft's parts are the draft's own: each renders in place, counted as it is asked for.
    let inPlace = 0;
    const html = renderPage({ kind: "page", nonce, kept: () => void inPlace++ });
    return { html: [html], parts: { kept: 0, inPlace } };
  }
  const shell = shellStateOf(page.state);
  const version = versionKeyOf(shell);
  const used = new Map<PartName, Kept>();
  const missed = new Map<PartName, { key: string; props: object; inPlace: ComponentType<never> }>();
  const keyOf = (part: PartName, props: object) => `${part}\n${JSON.stringify(props)}\n${version}`;
  const mode = (usedOnly: boolean): PartMode => ({
    kind: "page",
    nonce,
    kept: (part, props, inPlace) => {
      const key = keyOf(part, props);
      const known = kept.get(key);
      const one = known ?? (usedOnly ? used.get(part) : undefined);
      if (one) used.set(part, one);
      else if (known === undefined) missed.set(part, { key, props, inPlace });
      return one ?? undefined;
    },
  });
  let switchHtml: string | undefined;
  const switchOfPage = () => (switchHtml ??= inContext(page.state, BASE_PATH + page.path, page.search, <LanguageSwitch />));
  const withParts = (html: string) =>
    spliced(
      html,
      Array.from(used, ([part, one]) => ({ part, html: () => filled(one, page, switchOfPage) })),
    );

  const html = withParts(renderPage(mode(false)));
  const parts = { kept: used.size, inPlace: missed.size };
  if (missed.size === 0) return { html, parts };
  // First page of a version: rendered in place; its parts are kept if the page comes out the same with them.
  used.clear();
  for (const [part, { props, inPlace }] of missed) {
    const one = renderApart(shell, inPlace, props);
    if (one) used.set(part, one);
  }
  const same = used.size > 0 && withParts(renderPage(mode(true))).join("") === html.join("");
  for (const [part, { key }] of missed) keep(key, same ? (used.get(part) ?? null) : null);
  return { html, parts };
}
