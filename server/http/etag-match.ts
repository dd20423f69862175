/**
 * If-None-Match as RFC 9110 (13.1.2) has a GET or HEAD judged: `*`, or a list of entity
 * tags compared weakly (`W/"x"` matches `"x"`), as a browser echoes whichever it was sent.
 */

/** True when `ifNoneMatch` names `etag` (weakly) or is `*`. */
export function matchesIfNoneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = etag.replace(/^W\//, "");
  // A tag's quoted part may hold a comma: the list is read tag by tag, not split on commas.
  for (const [tag] of ifNoneMatch.matchAll(/(?:W\/)?"[^"]*"/g)) if (tag.replace(/^W\//, "") === opaque) return true;
  return false;
}
