/**
 * The format an image variant is sent in, chosen by the request's Accept alone (so it is
 * part of the cache key before the source is read): AVIF when accepted, else WebP, else
 * the source's own format. Answers say `Vary: Accept`.
 */
export type OutputChoice = "avif" | "webp" | "source";

/** True when `accept` lists `type` with a quality above zero. */
function accepts(accept: string, type: string): boolean {
  return accept
    .toLowerCase()
    .split(",")
    .some((item) => {
      const [name, ...params] = item.split(";").map((s) => s.trim());
      if (name !== type) return false;
      const q = params.find((p) => p.startsWith("q="));
      return q === undefined || Number(q.slice(2)) > 0;
    });
}

export function outputChoiceFor(accept: string | undefined): OutputChoice {
  if (!accept) return "source";
  if (accepts(accept, "image/avif")) return "avif";
  if (accepts(accept, "image/webp")) return "webp";
  return "source";
}
