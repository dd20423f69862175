/** Page URLs with a query, written the one way the site's links write them. */

export type QueryValues = Record<string, string | number | undefined>;

/** `path?name=value…` in the values' order, leaving out empty values; commas stay readable in id lists. */
export function withQuery(path: string, values: QueryValues): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== "") search.set(name, String(value));
  const text = search.toString().replace(/%2C/gi, ",");
  return text ? `${path}?${text}` : path;
}
