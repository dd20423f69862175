/**
 * A site path as a URL for other sites (sitemap, feeds, canonical and Open Graph URLs):
 * absolute from PUBLIC_ORIGIN only, never from the request's Host, which any client can
 * set; root-relative without it.
 */
export function absoluteUrl(origin: string | undefined, path: string): string {
  return origin ? origin + path : path;
}
