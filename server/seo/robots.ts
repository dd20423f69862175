/**
 * /robots.txt: everything may be crawled but the JSON API, and the sitemap is named
 * when its absolute URL is known (the robots.txt `Sitemap:` line must be absolute, so
 * without PUBLIC_ORIGIN it is left out).
 */
export function robotsTxt(origin: string | undefined): string {
  const lines = ["User-agent: *", "Allow: /", "Disallow: /api/"];
  if (origin) lines.push("", `Sitemap: ${origin}/sitemap.xml`);
  return `${lines.join("\n")}\n`;
}
