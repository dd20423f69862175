/**
 * Random request URLs and variants of them, for property tests of cache keys: a URL is
 * made of a base, a path and query pieces written as a client may write them (encoded
 * separators, repeats, empty values, leading zeros, huge numbers, unicode), and its
 * variant is the same URL after a few rewrites that may or may not change what it asks
 * for (encoding or decoding a character, folding one parameter into another's value,
 * splitting and joining lists, reordering, tracking parameters, leading zeros, the other
 * form of a detail path, another case of the base, another value).
 */
import fc from "fast-check";

export interface UrlSpace {
  /** Two spellings of the base path the server answers alike. */
  bases: readonly [string, string];
  /** Paths after the base: fixed ones, and detail prefixes each followed by one of `idSegments`. */
  paths: readonly string[];
  detailPaths: readonly string[];
  idSegments: readonly string[];
  /** The parameters the server reads, and others it should ignore or refuse. */
  names: readonly string[];
  otherNames: readonly string[];
}

/** Numbers as parameters read them, and as they do not. */
const NUMBERS = ["1", "2", "3", "5", "12", "20", "50", "100", "0", "03", "012", "100001", "100002", "9".repeat(20), "-1", "1e1", "+1"];
/** Pieces of query values: numbers, separators raw and encoded, text. */
const VALUE_TOKENS = [
  ...NUMBERS,
  ...[",", "%2C", "%2c", "|", "%7C", "%26", "%3D", "%25", "%2B", "%20", "%31", "%E4%B8%AD", "%E4", "abc", "en", "zh-CN"],
  ...["size", "page", "jobTypeIds", ""],
];
const SEPARATORS = [",", "|", "%2C", "%7C", "%26"];

interface RequestUrl {
  base: string;
  path: string;
  pieces: string[];
}
const textOf = (u: RequestUrl) => `${u.base}${u.path}${u.pieces.length ? `?${u.pieces.join("&")}` : ""}`;

const OPS = [
  "value",
  "encode",
  "decode",
  "fold",
  "split",
  "join",
  "swap",
  "track",
  "drop",
  "zero",
  "dup",
  "form",
  "encodePath",
  "base",
  "lang",
] as const;
const TEXT_OPS = ["value", "encode", "decode", "fold", "split", "join"] as const;

interface Op {
  kind: (typeof OPS)[number];
  a: number;
  b: number;
  token: string;
  number: string;
}

const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
const nameOf = (piece: string) => piece.split("=")[0] ?? "";
const pieceValue = (piece: string) => piece.slice(piece.indexOf("=") + 1);

/** A variant of a URL: each rewrite may or may not change what it asks for. */
function rewrite(space: UrlSpace, u: RequestUrl, ops: Op[]): RequestUrl {
  let { base, path } = u;
  const pieces = [...u.pieces];
  for (const { kind, a, b, token, number } of ops) {
    const i = pieces.length ? a % pieces.length : -1;
    const j = pieces.length ? b % pieces.length : -1;
    const piece = pieces[i] ?? "";
    switch (kind) {
      case "value":
        if (i >= 0) pieces[i] = `${nameOf(piece)}=${number}`;
        break;
      case "encode": {
        const at = piece.length ? b % piece.length : -1;
        if (at >= 0 && piece[at] !== "%") pieces[i] = piece.slice(0, at) + hex(piece[at] as string) + piece.slice(at + 1);
        break;
      }
      case "decode": {
        const m = /%([0-9a-f]{2})/i.exec(piece);
        const c = m ? String.fromCharCode(Number.parseInt(m[1] as string, 16)) : "";
        if (m && /[!-~]/.test(c) && c !== "%" && c !== "#") pieces[i] = piece.replace(m[0], c);
        break;
      }
      case "fold":
        // The separator between two parameters, written into the first one's value.
        if (i !== j && i >= 0) {
          pieces[i] = `${piece}%26${(pieces[j] as string).replace("=", "%3D")}`;
          pieces.splice(j, 1);
        }
        break;
      case "split": {
        const value = pieceValue(piece);
        const sep = SEPARATORS.find((s) => value.includes(s));
        if (sep) {
          const at = value.indexOf(sep);
          pieces.splice(i, 1, `${nameOf(piece)}=${value.slice(0, at)}`, `${nameOf(piece)}=${value.slice(at + sep.length)}`);
        }
        break;
      }
      case "join":
        if (i !== j && i >= 0 && nameOf(piece) === nameOf(pieces[j] as string)) {
          pieces[i] = `${piece}${SEPARATORS.includes(token) ? token : ","}${pieceValue(pieces[j] as string)}`;
          pieces.splice(j, 1);
        }
        break;
      case "swap":
        if (i >= 0) [pieces[i], pieces[j]] = [pieces[j] as string, piece];
        break;
      case "track":
        pieces.push(`utm_source=${token}`);
        break;
      case "drop":
        if (i >= 0) pieces.splice(i, 1);
        break;
      case "zero":
        if (i >= 0) pieces[i] = `${nameOf(piece)}=0${pieceValue(piece)}`;
        break;
      case "dup":
        if (i >= 0) pieces.splice(j, 0, piece);
        break;
      case "form": {
        // A detail's other form: /x/12 ↔ /x?id=12.
        const detail = space.detailPaths.find((p) => path.startsWith(`${p}/`));
        const idPiece = pieces.findIndex((p) => nameOf(p) === "id");
        if (detail) {
          pieces.push(`id=${path.slice(detail.length + 1)}`);
          path = detail;
        } else if (space.detailPaths.includes(path) && idPiece >= 0) {
          path = `${path}/${pieceValue(pieces[idPiece] as string)}`;
          pieces.splice(idPiece, 1);
        }
        break;
      }
      case "encodePath": {
        const segmentStart = path.lastIndexOf("/") + 1;
        const at = segmentStart + (b % Math.max(1, path.length - segmentStart));
        if (at < path.length && path[at] !== "%") path = path.slice(0, at) + hex(path[at] as string) + path.slice(at + 1);
        break;
      }
      case "base":
        base = base === space.bases[0] ? space.bases[1] : space.bases[0];
        break;
      case "lang":
        pieces.push(`lang=${token === "en" || token === "zh-CN" ? token : "en"}`);
        break;
    }
  }
  return { base, path, pieces };
}

/** A random URL of the space and a variant of it, as request targets. */
export function urlPairArb(space: UrlSpace): fc.Arbitrary<readonly [string, string]> {
  // Often one number, so that many URLs are valid and their variants differ in what they ask for.
  const valueArb = fc.oneof(
    { arbitrary: fc.constantFrom(...NUMBERS), weight: 3 },
    fc.array(fc.constantFrom(...VALUE_TOKENS), { minLength: 1, maxLength: 3 }).map((t) => t.join("")),
  );
  const nameArb = fc.oneof({ arbitrary: fc.constantFrom(...space.names), weight: 4 }, fc.constantFrom(...space.otherNames));
  const pieceArb = fc.tuple(nameArb, valueArb).map(([name, value]) => `${name}=${value}`);
  const pathArb = fc.oneof(
    fc.constantFrom(...space.paths),
    fc.tuple(fc.constantFrom(...space.detailPaths), fc.constantFrom(...space.idSegments)).map(([path, id]) => `${path}/${id}`),
  );
  const urlArb = fc.record({
    // The first spelling of the base is the usual one.
    base: fc.constantFrom(space.bases[0], space.bases[0], space.bases[0], space.bases[1]),
    path: pathArb,
    // Each parameter once at first: repeats come from the rewrites.
    pieces: fc.uniqueArray(pieceArb, { maxLength: 4, selector: nameOf }),
  });
  const opArb = fc.record({
    // Rewrites of the query text itself more often than the others.
    kind: fc.oneof({ arbitrary: fc.constantFrom(...TEXT_OPS), weight: 2 }, fc.constantFrom(...OPS)),
    a: fc.nat(20),
    b: fc.nat(40),
    token: fc.constantFrom(...VALUE_TOKENS, ...SEPARATORS),
    number: fc.constantFrom(...NUMBERS),
  });
  return fc
    .tuple(urlArb, fc.array(opArb, { minLength: 1, maxLength: 4 }))
    .map(([url, ops]) => [textOf(url), textOf(rewrite(space, url, ops))] as const);
}
