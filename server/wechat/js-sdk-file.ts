// WeChat's JS-SDK, served from this site so the CSP stays 'self' (NOTICE.md says where the file comes from).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { RequestHandler } from "express";

export function jsSdkFileHandler(): RequestHandler {
  const file = createRequire(import.meta.url).resolve("jweixin-module");
  const body = readFileSync(file);
  return (_req, res) => {
    // Its name carries its version: a new release is a new address.
    res.set({ "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable" });
    res.send(body);
  };
}
