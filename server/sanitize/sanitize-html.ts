/** The allowlist every piece of upstream HTML passes before anyone renders it (docs/behaviour.md#sanitising). */
import sanitize from "sanitize-html";
import { DETAIL_IMAGE_SIZES, IMAGE_PATH, isImageSource, responsiveImage } from "../../shared/image-url.ts";

const OPTIONS: sanitize.IOptions = {
  allowedTags: [
    ...["p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "ul", "ol", "li", "dl", "dt", "dd"],
    ...["strong", "b", "em", "i", "u", "s", "sub", "sup", "small", "mark", "span", "div", "section", "article", "figure", "figcaption"],
    ...["a", "img", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption"],
  ],
  allowedAttributes: {
    a: ["href", "title", "target", "rel"],
    img: ["src", "srcset", "sizes", "alt", "title", "width", "height", "loading", "decoding"],
    th: ["colspan", "rowspan", "scope"],
    td: ["colspan", "rowspan"],
    "*": ["class", "lang", "dir"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    // Any target may open a new window (a named one too); the content's own rel (`opener`) is never kept.
    a: (tagName, { rel: _contentRel, ...attribs }) => ({
      tagName,
      attribs: attribs.target ? { ...attribs, rel: "noopener noreferrer" } : attribs,
    }),
    img: (tagName, attribs) => ({ tagName, attribs: throughImageEndpoint(attribs) }),
  },
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

/** Through the image endpoint, as the CSP allows no other (docs/behaviour.md#how-the-pages-use-it); lazily, being below the fold. */
function throughImageEndpoint({
  src = "",
  srcset: _srcset,
  sizes: _sizes,
  loading: _loading,
  decoding: _decoding,
  ...attribs
}: sanitize.Attributes): sanitize.Attributes {
  const source = sourceOf(src.trim());
  if (!isImageSource(source)) return attribs;
  const image = responsiveImage(source, 320, 800);
  return { ...attribs, src: image.src, srcset: image.srcSet, sizes: DETAIL_IMAGE_SIZES, loading: "lazy", decoding: "async" };
}

/** An image endpoint address stands for its `url`, so a second pass leaves sanitised HTML unchanged (the shared tier's check). */
function sourceOf(src: string): string {
  let source = src;
  while (source.startsWith(`${IMAGE_PATH}?`)) {
    const inner = new URLSearchParams(source.slice(IMAGE_PATH.length + 1)).get("url");
    if (!inner) break;
    source = inner.trim();
  }
  return source;
}

export function sanitizeHtml(html: string): string {
  return sanitize(html, OPTIONS);
}
