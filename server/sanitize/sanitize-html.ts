/**
 * The allowlist every piece of upstream HTML passes before anyone renders it: plain
 * document structure, links limited to http, https, mailto and tel, images from http(s)
 * or this site shown through the image endpoint, no scripts, styles, frames, forms, ids (which could clobber the page's
 * own) or event attributes.
 */
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
    // A link that may open another window (any target: a named one opens a new window too) must not hand
    // the opener or the referrer to the other site; the content's own rel (`opener`) is never kept.
    a: (tagName, { rel: _contentRel, ...attribs }) => ({
      tagName,
      attribs: attribs.target ? { ...attribs, rel: "noopener noreferrer" } : attribs,
    }),
    img: (tagName, attribs) => ({ tagName, attribs: throughImageEndpoint(attribs) }),
  },
  // An image whose source was refused is dropped rather than left empty.
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

/**
 * An upstream image goes through the same-origin image endpoint (its address and the
 * sizes an article needs), as every image of ours does: the CSP allows no other. Its own
 * `srcset`, `sizes`, `loading` and `decoding` are replaced, and a source the endpoint cannot read drops the image.
 * Upstream images sit in article bodies, below the fold: they load lazily.
 */
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

/**
 * The image an address names: an address of the image endpoint stands for its `url`, so
 * HTML sanitised once comes out of a second pass unchanged (the shared tier's entries are
 * checked that way: server/api-proxy/answer-codec.ts).
 */
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
