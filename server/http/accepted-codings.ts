// Which content codings a client's Accept-Encoding takes: named, and not refused with q=0.
export const takesBr = (acceptEncoding: string | undefined) =>
  acceptEncoding !== undefined && /\bbr\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding);
export const takesGzip = (acceptEncoding: string | undefined) =>
  acceptEncoding !== undefined && /\bgzip\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding);
