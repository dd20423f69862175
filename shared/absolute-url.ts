/** Absolute from PUBLIC_ORIGIN only, never from the request's Host, which any client can set. */
export function absoluteUrl(origin: string | undefined, path: string): string {
  return origin ? origin + path : path;
}
