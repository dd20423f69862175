/** The security headers of the built site's pages, API answers and redirects, and the operator switches that change them. */
import { createHash } from "node:crypto";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeScriptSource } from "../../shared/home-script.ts";
import { type BuiltSite, startBuiltSite, withBuiltSite } from "../support/built-site.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const SCRIPT_BODY = "container.dataset.ran = '1';";
let upstream: StandInUpstream;

const siteWith = (env: Record<string, string> = {}) => startBuiltSite({ API_BASE_URL: upstream.url, ...env });

function directives(policy: string | undefined): Map<string, string> {
  return new Map((policy ?? "").split(";").map((d) => d.trim().split(/\s+(.*)/) as [string, string]));
}

beforeAll(async () => {
  upstream = await startStandInUpstream({
    "/api/portal/sys/syscfg": { themePortal: "1,2" },
    "/api/portal/sys/sysauthor": { name: "N", fname: "F" },
    "/api/portal/sys/menu/list": [],
    "/api/portal/sys/indexhtml": { html: `useEval|${SCRIPT_BODY}` },
  });
});

afterAll(() => upstream.close());

describe("security headers", () => {
  let site: BuiltSite;
  beforeAll(async () => {
    site = await siteWith();
  });
  afterAll(() => site?.close());

  it.each(["/portal/about/index.html", "/api/portal/sys/syscfg", "/api/portal/nope", "/portal/healthz", "/somewhere"])(
    "sends a strict policy and the careful-site headers on %s",
    async (path) => {
      const res = await request(site.origin).get(path);
      const csp = directives(res.headers["content-security-policy"]);
      expect(csp.get("script-src")).toBeDefined();
      expect(csp.get("script-src")).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(csp.get("object-src")).toBe("'none'");
      expect(csp.get("base-uri")).toBe("'none'");
      expect(csp.get("frame-ancestors")).toBe("'self'");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
      expect(res.headers["x-powered-by"]).toBeUndefined();
      expect(res.headers["strict-transport-security"]).toBeUndefined();
    },
  );

  it("allows the home script by the hash of its exact text, and nothing else inline", async () => {
    const res = await request(site.origin).get("/portal/index.html");
    const hash = createHash("sha256").update(homeScriptSource(SCRIPT_BODY)).digest("base64");
    expect(directives(res.headers["content-security-policy"]).get("script-src")).toBe(`'self' 'sha256-${hash}'`);
    const inlineScripts = res.text.match(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/(ld\+)?json")[^>]*>/g) ?? [];
    expect(inlineScripts).toEqual([]);
  });
});

describe("operator switches", () => {
  it("drops the script hash when PORTAL_HOME_SCRIPT=off", async () => {
    const res = await withBuiltSite({ API_BASE_URL: upstream.url, PORTAL_HOME_SCRIPT: "off" }, (site) =>
      request(site.origin).get("/portal/index.html"),
    );
    expect(directives(res.headers["content-security-policy"]).get("script-src")).toBe("'self'");
  });

  it("sends HSTS only when the public origin is https", async () => {
    const res = await withBuiltSite({ API_BASE_URL: upstream.url, PUBLIC_ORIGIN: "https://www.example.com" }, (site) =>
      request(site.origin).get("/portal/healthz"),
    );
    expect(res.headers["strict-transport-security"]).toMatch(/max-age=63072000/);
    expect(res.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
  });
});
