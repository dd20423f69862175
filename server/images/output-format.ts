/** A variant's format, by Accept alone, so it is in the cache key before the source is read (docs/behaviour.md#images). */
export type OutputChoice = "avif" | "webp" | "source";

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
