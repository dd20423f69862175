/**
 * The Mozilla HTTP Observatory's grading rules (tests/support/observatory.ts) applied to
 * what the built site sends when its public origin is https: the scan a site gets, made
 * against the site as the TLS proxy forwards it. The proxy's own part, sending
 * http://host/path to https://host/path, is assumed; everything after it is the app's.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { type HeaderRecord, type ObservatoryScore, scoreObservatory } from "../support/observatory.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const ORIGIN = "https://www.example.com";
/** The Origin the Observatory's CORS preflight sends. */
const SCANNER_ORIGIN = "https://http-observatory.security.mozilla.org";

const paged = (items: unknown[]) => ({ pageDataList: items, totalCount: items.length, totalPageCount: 1 });
const NEWS = Array.from({ length: 3 }, (_, i) => ({
  id: 31 + i,
  title: `新闻${i + 1}号`,
  brief: "",
  img: "",
  dateTime: `2024030${i + 1}093000`,
}));

let upstream: StandInUpstream;
let site: BuiltSite;

beforeAll(async () => {
  upstream = await startStandInUpstream({
    "/api/portal/sys/syscfg": { themePortal: "1,1", metaKeywords: "", metaDescription: "", copyright: "©", record: "", edi: "" },
    "/api/portal/sys/sysauthor": { name: "测试公司", fname: "测试科技有限公司", logo: "", phone: "", email: "" },
    "/api/portal/sys/menu/list": [],
    "/api/portal/message/indexslide/list": [{ title: "幻灯片", url: "https://slides.example/1", img: "/portal/media/slide.svg" }],
    "/api/portal/product/product/list": [{ id: 11, name: "产品", propImg: "/portal/media/p.svg", type: 1 }],
    "/api/portal/service/service/list": [{ id: 21, name: "方案", type: 1 }],
    "/api/portal/message/news/list": paged(NEWS),
    "/api/portal/message/notice/list": paged([]),
    "/api/portal/crm/partner/list": [],
    "/api/portal/sys/indexhtml": { html: "useEval|container.dataset.ran = '1';" },
  });
  site = await startBuiltSite({ API_BASE_URL: upstream.url, PUBLIC_ORIGIN: ORIGIN });
});

afterAll(async () => {
  await site?.close();
  await upstream.close();
});

const setCookies = (headers: HeaderRecord): string[] => {
  const value = headers["set-cookie"];
  return value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
};

interface Scan extends ObservatoryScore {
  status: number;
  finalUrl: string;
}

/**
 * What the Observatory does for `path`: GET it over https following redirects, a CORS
 * preflight to where it ended, /robots.txt for more cookies, and the http:// request, which
 * the TLS proxy sends to the same URL on https before the app's own redirects apply.
 */
async function scan(path: string): Promise<Scan> {
  const httpsRoute = [new URL(path, ORIGIN)];
  const cookies: string[] = [];
  let res = await request(site.origin).get(path);
  for (let hops = 0; res.status >= 300 && res.status < 400; hops++) {
    expect(hops, "redirect loop").toBeLessThan(5);
    cookies.push(...setCookies(res.headers));
    const next = new URL(res.headers.location ?? "", httpsRoute.at(-1));
    expect(next.origin, "the app's redirects stay on its own origin").toBe(ORIGIN);
    httpsRoute.push(next);
    res = await request(site.origin).get(next.pathname + next.search);
  }
  const finalUrl = (httpsRoute.at(-1) as URL).href;
  const final = new URL(finalUrl);
  const preflight = await request(site.origin)
    .options(final.pathname + final.search)
    .set("Origin", SCANNER_ORIGIN)
    .set("Access-Control-Request-Method", "GET");
  const robots = await request(site.origin).get("/robots.txt");
  cookies.push(...setCookies(robots.headers));

  const result = scoreObservatory({
    url: finalUrl,
    headers: res.headers,
    body: res.text,
    httpRoute: [`http://www.example.com${path}`, ...httpsRoute.map((url) => url.href)],
    corsPreflight: { origin: SCANNER_ORIGIN, headers: preflight.headers },
    otherSetCookies: cookies,
  });
  return { ...result, status: res.status, finalUrl };
}

const outcomes = (s: ObservatoryScore) => Object.fromEntries(s.tests.map((t) => [t.test, `${t.result} (${t.modifier})`]));

describe("Observatory grade over https", () => {
  it("grades the home page, reached from /, A+ with 125 points", async () => {
    const home = await scan("/");
    expect(home.status).toBe(200);
    expect(home.finalUrl).toBe(`${ORIGIN}/portal/index.html`);
    expect(outcomes(home)).toEqual({
      "content-security-policy": "csp-implemented-with-no-unsafe (5)",
      cookies: "cookies-not-found (0)",
      "cross-origin-resource-sharing": "cross-origin-resource-sharing-not-implemented (0)",
      redirection: "redirection-to-https (0)",
      "referrer-policy": "referrer-policy-private (5)",
      "strict-transport-security": "hsts-implemented-max-age-at-least-six-months (0)",
      "subresource-integrity": "sri-not-implemented-but-all-scripts-loaded-from-secure-origin (0)",
      "x-content-type-options": "x-content-type-options-nosniff (0)",
      "x-frame-options": "x-frame-options-implemented-via-csp (5)",
      "cross-origin-resource-policy": "corp-implemented-with-same-origin (10)",
    });
    expect(home.scoreWithoutBonuses).toBe(100);
    expect(home.score).toBe(125);
    expect(home.grade).toBe("A+");
  });

  it.each([
    ["a news list page", "/portal/message/news/list.html", 200],
    ["an /api/portal answer", "/api/portal/message/news/list?pageIndex=0&pageMaxCount=10", 200],
    ["a 404 page", "/portal/product/999", 404],
    ["an /api/portal 404", "/api/portal/nope", 404],
  ])("grades %s A+ with no penalty", async (_name, path, status) => {
    const result = await scan(path);
    expect(result.status).toBe(status);
    expect(result.tests.filter((t) => t.modifier < 0)).toEqual([]);
    expect(result.score).toBe(125);
    expect(result.grade).toBe("A+");
  });
});
