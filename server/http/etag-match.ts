// If-None-Match as RFC 9110 (13.1.2) judges a GET: `*`, or entity tags compared weakly (docs/behaviour.md#api-cache).

export function matchesIfNoneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = etag.replace(/^W\//, "");
  // A tag's quoted part may hold a comma: the list is read tag by tag, not split on commas.
  for (const [tag] of ifNoneMatch.matchAll(/(?:W\/)?"[^"]*"/g)) if (tag.replace(/^W\//, "") === opaque) return true;
  return false;
}
