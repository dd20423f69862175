/** Page URLs with a query, written the one way the site's links write them. */

export type QueryValues = Record<string, string | number | undefined>;

/** Commas stay readable in id lists. */
export function searchOf(values: QueryValues): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== "") search.set(name, String(value));
  return search.toString().replace(/%2C/gi, ",");
}

export function withQuery(path: string, values: QueryValues): string {
  const search = searchOf(values);
  return search ? `${path}?${search}` : path;
}
