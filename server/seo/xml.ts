/** Text for XML: XML 1.0 forbids most controls and lone surrogates even as references, so they are dropped first. */

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Surrogates are checked in pairs. */
function isXmlUnit(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code !== 0xfffe && code !== 0xffff);
}

function xmlSafeText(text: string): string {
  if (!/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/.test(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text.slice(i, i + 2);
        i++;
      }
      continue;
    }
    if (code >= 0xdc00 && code <= 0xdfff) continue;
    if (isXmlUnit(code)) out += text.charAt(i);
  }
  return out;
}

export function escapeXml(text: string): string {
  return xmlSafeText(text).replace(/[&<>"']/g, (c) => XML_ESCAPES[c] as string);
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
