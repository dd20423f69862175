/** /robots.txt (docs/behaviour.md#search-engines): the `Sitemap:` line must be absolute, so needs PUBLIC_ORIGIN. */
export function robotsTxt(origin: string | undefined): string {
  const lines = ["User-agent: *", "Allow: /", "Disallow: /api/"];
  if (origin) lines.push("", `Sitemap: ${origin}/sitemap.xml`);
  return `${lines.join("\n")}\n`;
}
