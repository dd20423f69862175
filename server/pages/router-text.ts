/**
 * A request path or query as the client router (wouter) reads it: it decodes both with
 * `decodeURI` before matching and parsing, and keeps the text as it is when that fails.
 * The server matches and parses a page URL the same way, so it loads, renders and keys
 * the page the browser will show at that URL (`/x/%31%32` is `/x/12` to the router).
 */
export function routerTextOf(raw: string): string {
  if (!raw.includes("%")) return raw;
  try {
    return decodeURI(raw);
  } catch {
    return raw;
  }
}
