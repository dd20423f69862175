// A path or query as the browser's router reads it (decodeURI, kept as is when that fails), so the server keys
// and renders the page the browser will show at that URL (docs/behaviour.md#routes).
export function routerTextOf(raw: string): string {
  if (!raw.includes("%")) return raw;
  try {
    return decodeURI(raw);
  } catch {
    return raw;
  }
}
