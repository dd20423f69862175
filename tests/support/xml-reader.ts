/**
 * A small strict XML reader for the sitemap and feed tests: enough to prove well-formedness
 * (a malformed document throws, naming where) and to query the result.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITY = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const NAME = "[A-Za-z_][\\w.:-]*";

function decodeXmlText(raw: string, where: string): string {
  if (raw.replace(ENTITY, "").includes("&")) throw new Error(`bare & in ${where}: ${raw.slice(0, 80)}`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these, which is what is checked.
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(raw)) throw new Error(`forbidden character in ${where}`);
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return raw.replace(ENTITY, (_m, ref: string) =>
    ref[0] === "#"
      ? String.fromCodePoint(ref[1] === "x" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1)))
      : (named[ref] as string),
  );
}

/** Parses a whole document strictly: one root, matched tags, quoted unique attributes, escaped text. */
export function parseXml(xml: string): XmlElement {
  let at = 0;
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(xml);
  if (!declaration) throw new Error("missing XML declaration");
  at = declaration[0].length;
  const root: XmlElement = { name: "#document", attrs: {}, children: [], text: "" };
  const stack: XmlElement[] = [root];
  const tag = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*"[^"<]*")*)\\s*(/?)>`);
  while (at < xml.length) {
    const lt = xml.indexOf("<", at);
    const text = xml.slice(at, lt === -1 ? xml.length : lt);
    const top = stack[stack.length - 1] as XmlElement;
    if (text.trim()) {
      if (top === root) throw new Error(`text outside the root: ${text.slice(0, 40)}`);
      top.text += decodeXmlText(text, top.name);
    }
    if (lt === -1) break;
    const m = tag.exec(xml.slice(lt));
    if (!m) throw new Error(`malformed markup at ${lt}: ${xml.slice(lt, lt + 60)}`);
    const [whole, closing, name, attrText, selfClosing] = m as unknown as [string, string, string, string, string];
    if (closing) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
    } else {
      const attrs: Record<string, string> = {};
      for (const a of (attrText ?? "").matchAll(new RegExp(`(${NAME})\\s*=\\s*"([^"]*)"`, "g"))) {
        if ((a[1] as string) in attrs) throw new Error(`duplicate attribute ${a[1]}`);
        attrs[a[1] as string] = decodeXmlText(a[2] as string, `${name}@${a[1]}`);
      }
      const element: XmlElement = { name, attrs, children: [], text: "" };
      if (top === root && root.children.length > 0) throw new Error("more than one root element");
      top.children.push(element);
      if (!selfClosing) stack.push(element);
    }
    at = lt + whole.length;
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]?.name}>`);
  if (root.children.length !== 1) throw new Error("no root element");
  return root.children[0] as XmlElement;
}

export function findAll(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...findAll(child, name)]);
}

export const childText = (element: XmlElement, name: string) => element.children.find((c) => c.name === name)?.text;
