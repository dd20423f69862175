/**
 * Hostile upstream content, for the tests (the app in process) and the reliability run's
 * XSS section (the production process in Chromium) alike: markup and text payloads, the
 * JSON shapes an upstream may send where a string is expected, and the check that finds
 * a payload in an executable position of a page's server HTML.
 */
import { Parser } from "htmlparser2";

/** A script that marks the page as run (a dialog, and `window.__xss` set to the payload's id). */
export const scriptOf = (id: string) => `window.__xss='${id}';alert('${id}')`;

/** Markup payloads, for the HTML fields (details, briefs, home html, job texts). */
export function htmlPayload(id: string): string {
  return [
    `<p>XSS-${id}</p>`,
    `<img src=x onerror="${scriptOf(id)}">`,
    `<svg onload="${scriptOf(id)}"><circle r=1 /></svg>`,
    `<a href="javascript:${scriptOf(id)}">xss-link-${id}</a>`,
    `<a href=" JaVaScRiPt:${scriptOf(id)}">xss-link-case-${id}</a>`,
    `<a href="jav&#x09;ascript:${scriptOf(id)}">xss-link-tab-${id}</a>`,
    `<a href="data:text/html,<script>${scriptOf(id)}</script>">xss-link-data-${id}</a>`,
    `</script><script>${scriptOf(id)}</script>`,
    `<!--<script>${scriptOf(id)}</script>-->`,
    `<iframe srcdoc="<script>parent.__xss='${id}'</script>"></iframe>`,
    `<details open ontoggle="${scriptOf(id)}"><summary>x</summary></details>`,
    `<form action="javascript:${scriptOf(id)}"><button type=submit>xss-submit-${id}</button></form>`,
    `<object data="javascript:${scriptOf(id)}"></object><embed src="javascript:${scriptOf(id)}">`,
    `<math><mtext><table><mglyph><style><img src=x onerror="${scriptOf(id)}"></style></mglyph></table></mtext></math>`,
    `<noscript><p title="</noscript><img src=x onerror=${scriptOf(id)}>"></noscript>`,
    `<div style="background:url(javascript:${scriptOf(id)})">x</div>`,
    `<meta http-equiv="refresh" content="0;url=javascript:${scriptOf(id)}">`,
    `<base href="javascript:${scriptOf(id)}//">`,
    `<input autofocus onfocus="${scriptOf(id)}">`,
    `<video><source onerror="${scriptOf(id)}"></video>`,
    `<body onload="${scriptOf(id)}">`,
  ].join("\n");
}

/** Plain-text payloads: rendered as text, they must stay text. */
export const textPayload = (id: string) =>
  `XSS-${id} "><img src=x onerror="${scriptOf(id)}"></script><script>${scriptOf(id)}</script><!--<script>${scriptOf(id)}</script>-->`;

/**
 * What an upstream may send where a string is expected, each carrying a payload: arrays
 * (which React would join into markup), nested ones, objects (one shaped like a
 * string-convertible value, which makes String() and template literals throw), an own
 * `__proto__` key (as JSON.parse makes it), and the scalars that are not strings.
 */
export const HOSTILE_SHAPES: readonly { name: string; of: (payload: string) => unknown }[] = [
  { name: "array", of: (payload) => [payload] },
  { name: "nested array", of: (payload) => [[payload], [[payload]], { detail: payload }] },
  { name: "object", of: (payload) => ({ html: payload, detail: payload, 0: payload }) },
  { name: "string-like object", of: (payload) => ({ toString: payload, valueOf: payload, length: 1, 0: payload }) },
  {
    name: "__proto__ key",
    of: (payload) =>
      JSON.parse(`{"__proto__":${JSON.stringify({ toString: payload, detail: payload })},"detail":${JSON.stringify([payload])}}`),
  },
  { name: "number", of: () => 1e21 },
  { name: "boolean", of: () => true },
  { name: "null", of: () => null },
];

/**
 * A payload with every string in it, at any depth, replaced by `shape` carrying a markup
 * payload named after the string's field; numbers (ids, counts) stay, so pages still find
 * their items.
 */
export function reshapeStrings(value: unknown, shape: (payload: string) => unknown, field = "data"): unknown {
  if (typeof value === "string") return shape(htmlPayload(`shape-${field}`));
  if (Array.isArray(value)) return value.map((item) => reshapeStrings(item, shape, field));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, reshapeStrings(item, shape, key)]));
}

const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "data", "xlink:href", "srcdoc", "poster", "background", "srcset"]);
/** A URL a browser would run: browsers ignore spaces and control characters inside the scheme. */
function runsScript(url: string): boolean {
  const squeezed = [...url]
    .filter((c) => c.charCodeAt(0) > 0x20)
    .join("")
    .toLowerCase();
  return /^(javascript|vbscript):|^data:text\/html/.test(squeezed);
}
const DATA_SCRIPT_TYPES = new Set(["application/json", "application/ld+json"]);
const FORBIDDEN_ELEMENTS = new Set(["iframe", "frame", "object", "embed", "base", "applet", "portal"]);

/**
 * Executable positions of a payload in the server HTML (empty when none). A whole page
 * must have exactly its one JSON state script and our own modules (under `scriptRoot`:
 * the built ones, or the sources when rendered from source); a fragment (an HTML field
 * as the API answers it) no script at all.
 */
export function executablePayloads(html: string, { wholePage = true, scriptRoot = "/portal/" } = {}): string[] {
  const found: string[] = [];
  const scripts: { attribs: Record<string, string>; text: string }[] = [];
  let script: { attribs: Record<string, string>; text: string } | undefined;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        for (const [attr, value] of Object.entries(attribs)) {
          if (attr.startsWith("on")) found.push(`<${name} ${attr}="${value.slice(0, 60)}">`);
          else if (
            attr === "srcdoc" ||
            (URL_ATTRIBUTES.has(attr) && runsScript(value) && value.includes("__xss")) ||
            (attr === "style" && /javascript:|expression\(/i.test(value))
          )
            found.push(`<${name} ${attr}="${value.slice(0, 60)}">`);
        }
        if (FORBIDDEN_ELEMENTS.has(name)) found.push(`<${name}>`);
        if (name === "meta" && /refresh/i.test(attribs["http-equiv"] ?? "")) found.push("<meta http-equiv=refresh>");
        if (name === "script") script = { attribs, text: "" };
      },
      ontext(text) {
        if (script) script.text += text;
      },
      onclosetag(name) {
        if (name === "script" && script) {
          scripts.push(script);
          script = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  const states = scripts.filter((s) => s.attribs.id === "portal-state");
  if (wholePage && (states.length !== 1 || states[0]?.attribs.type !== "application/json")) found.push(`${states.length} state scripts`);
  for (const s of scripts) {
    if (DATA_SCRIPT_TYPES.has(s.attribs.type ?? "") && !s.attribs.src) {
      // A data block is inert while it stays one: whole JSON that no payload broke out of.
      try {
        JSON.parse(s.text);
      } catch {
        found.push(`a ${s.attribs.type} script that is not whole JSON: ${s.text.slice(0, 60)}`);
      }
      continue;
    }
    if (!wholePage || !s.attribs.src?.startsWith(scriptRoot) || s.text.trim() !== "")
      found.push(`<script ${JSON.stringify(s.attribs)}>${s.text.slice(0, 60)}`);
  }
  return found;
}
