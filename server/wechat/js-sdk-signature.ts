// The JS-SDK's signature (its docs' appendix 1): SHA-1 over the four fields sorted by name, values as they are.
import { createHash, randomBytes } from "node:crypto";

export interface SignatureInput {
  ticket: string;
  nonceStr: string;
  timestamp: number;
  /** The page's address as the browser has it; anything from `#` on is not signed. */
  url: string;
}

export function withoutFragment(url: string): string {
  const hash = url.indexOf("#");
  return hash === -1 ? url : url.slice(0, hash);
}

export function jsSdkSignature({ ticket, nonceStr, timestamp, url }: SignatureInput): string {
  const text = `jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${withoutFragment(url)}`;
  return createHash("sha1").update(text).digest("hex");
}

/** Letters and digits only, as WeChat's examples use. */
export function newNonce(): string {
  return randomBytes(8).toString("hex");
}
