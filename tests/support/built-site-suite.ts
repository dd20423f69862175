/** The built site for one suite: started before its first test, stopped after its last. */
import request from "supertest";
import { afterAll, beforeAll } from "vitest";
import { type BuiltSite, startBuiltSite } from "./built-site.ts";

/**
 * Starts the built site with `env` (the embedded demo site unless it names an upstream) for the calling
 * suite; `get` asks it for a path, as supertest does.
 */
export function builtSiteForSuite(env: Record<string, string> = {}): { get: (url: string) => request.Test } {
  let site: BuiltSite | undefined;
  beforeAll(async () => {
    site = await startBuiltSite(env);
  });
  afterAll(async () => {
    await site?.close();
  });
  const originOf = () => {
    if (!site) throw new Error("the built site has not started");
    return site.origin;
  };
  return { get: (url) => request(originOf()).get(url) };
}
