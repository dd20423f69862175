/**
 * The contact form takes enquiries from the site's own pages only: what a browser on another
 * site can send (a cross-site form post, a text/plain "JSON" body) is refused with a status
 * and a message its visitor or client can read, tokens work only for the form's language and
 * site they were served for, and giving out tokens is charged to the miss budget.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { startContentApi } from "../../server/content/api.ts";
import { openContentDb } from "../../server/content/db.ts";
import { importSite } from "../../server/content/site-io.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import { testConfig } from "../support/config.ts";
import { buildFixtureSite } from "../support/fixture-site.ts";

const FORM_SECRET = "a-cross-site-test-form-secret-0123";
const PUBLIC_ORIGIN = "https://www.example.com";
const REFUSED = /^enquiries are taken only from this site's own pages/;

const fields = (token: string, message = "Please send a quote.") => ({
  name: "Li Lei",
  email: "li.lei@example.com",
  message,
  consent: "on",
  token,
  website: "",
});
const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
const servedToken = (html: string) => /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";

describe("enquiries from other sites", () => {
  let dir: string;
  let api: Awaited<ReturnType<typeof startContentApi>>;
  let content: Awaited<ReturnType<typeof openContentDb>>;
  let renderer: Awaited<ReturnType<typeof createProdRenderer>>;
  const apps: PortalApp[] = [];
  /** The app's clock: a served token is made 10 s old by moving it, past the 3-second rule. */
  let clock = Date.now();

  let databases = 0;
  /** Each app its own database: a test sees only the enquiries it sent. */
  const start = (env: Record<string, string> = {}) => {
    const database = `sqlite:${path.join(dir, `portal-${++databases}.db`)}`;
    const app = createApp(testConfig({ DATABASE_URL: database, FORM_SECRET, PUBLIC_ORIGIN, PAGE_CACHE: "off", ...env }), {
      upstreamUrl: api.url,
      renderer,
      now: () => clock,
    });
    apps.push(app);
    return app;
  };
  const stored = async (app: PortalApp) => (await app.portal.enquiries.store.list()).map((row) => row.message);
  /** A token as the API gives it out for `lang`, then 10 s later by the app's clock. */
  const apiToken = async (app: PortalApp, lang = "zh-CN", host?: string) => {
    const asked = request(app).get(`/api/portal/enquiry/token?lang=${lang}`);
    const answer = await (host ? asked.set("Host", host) : asked).expect(200);
    clock += 10_000;
    return String(answer.body.data.token);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-enquiry-origin-"));
    content = await openContentDb("sqlite::memory:");
    await importSite(content, buildFixtureSite());
    api = await startContentApi(content);
    renderer = await createProdRenderer();
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.portal.close()));
  });
  afterAll(async () => {
    await api.close();
    await content.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("answers a form posted from another site with 403 and the form, empty, saying why in the page's language", async () => {
    const app = start();
    const token = await apiToken(app);
    const page = await request(app)
      .post("/portal/contact.html")
      .set("Sec-Fetch-Site", "cross-site")
      .set("Origin", "https://evil.example")
      .type("form")
      .send(form(fields(token, "text of another site")))
      .expect(403);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.text).toContain("这份表单是从其他网站提交的，未被接收。");
    expect(page.text).toContain("enquiry-summary");
    expect(page.text).not.toContain("text of another site");
    expect(servedToken(page.text)).not.toBe("");
    // An older browser sends no Sec-Fetch-Site; its Origin still says where the form was.
    const english = await apiToken(app, "en");
    const old = await request(app)
      .post("/portal/en/contact.html")
      .set("Origin", "https://evil.example")
      .type("form")
      .send(form(fields(english, "text of another site")))
      .expect(403);
    expect(old.text).toContain("This form was sent from another website and was not accepted.");
    expect(await stored(app)).toEqual([]);
  });

  it("answers the JSON API called from another site with 403 and a message, and stores nothing", async () => {
    const app = start();
    const refusals: [string, string][] = [
      ["Sec-Fetch-Site", "cross-site"],
      ["Origin", "https://evil.example"],
      ["Origin", "https://www.example.com.evil.example"],
      ["Origin", "http://www.example.com"],
      ["Origin", "null"],
    ];
    for (const [header, value] of refusals) {
      const answer = await request(app)
        .post("/api/portal/enquiry")
        .set(header, value)
        .send(fields(await apiToken(app), `from ${value}`));
      expect(answer.status, `${header}: ${value}`).toBe(403);
      expect(answer.body.msg).toMatch(REFUSED);
    }
    const token = await request(app).get("/api/portal/enquiry/token").set("Sec-Fetch-Site", "cross-site").expect(403);
    expect(token.body.msg).toMatch(REFUSED);
    expect(await stored(app)).toEqual([]);
    expect(await app.portal.metrics.registry.metrics()).toMatch(/portal_enquiries_refused_total\{reason="cross_site"\} 5$/m);
  });

  it("takes enquiries from its own pages, and from a client that sends neither Origin nor Sec-Fetch-Site", async () => {
    const app = start();
    await request(app)
      .post("/api/portal/enquiry")
      .set("Origin", PUBLIC_ORIGIN)
      .set("Sec-Fetch-Site", "same-origin")
      .send(fields(await apiToken(app), "from our page with JavaScript"))
      .expect(202);
    await request(app)
      .post("/portal/contact.html")
      .set("Origin", PUBLIC_ORIGIN)
      .type("form")
      .send(form(fields(await apiToken(app), "from our page without JavaScript")))
      .expect(303);
    await request(app)
      .post("/api/portal/enquiry")
      .send(fields(await apiToken(app), "from curl"))
      .expect(202);
    expect(await stored(app)).toEqual(["from our page with JavaScript", "from our page without JavaScript", "from curl"]);
  });

  it("without PUBLIC_ORIGIN, takes an Origin naming the host the form was sent to, whatever its scheme, and no other", async () => {
    const app = start({ PUBLIC_ORIGIN: "" });
    const post = async (origin: string, message: string) =>
      request(app)
        .post("/api/portal/enquiry")
        .set("Host", "portal.test:8080")
        .set("Origin", origin)
        .send(fields(await apiToken(app, "zh-CN", "portal.test:8080"), message));
    expect((await post("http://portal.test:8080", "same host")).status).toBe(202);
    // Behind a proxy that ends TLS the server hears http: the host decides.
    expect((await post("https://portal.test:8080", "same host, https")).status).toBe(202);
    const other = await post("http://other.test:8080", "another host");
    expect(other.status).toBe(403);
    expect(other.body.msg).toBe("enquiries are taken only from this site's own pages: this one was sent from http://other.test:8080");
    expect((await post("http://portal.test:8081", "another port")).status).toBe(403);
    expect(await stored(app)).toEqual(["same host", "same host, https"]);
  });

  it("answers an enquiry not sent as application/json with 415 saying how to send it", async () => {
    const app = start();
    const bodies: [string | undefined, string][] = [
      ["text/plain", JSON.stringify(fields(await apiToken(app), "as text/plain"))],
      ["application/x-www-form-urlencoded", form(fields(await apiToken(app), "as a form"))],
      ["multipart/form-data; boundary=x", "--x--"],
      [undefined, JSON.stringify(fields(await apiToken(app), "without a type"))],
    ];
    for (const [type, body] of bodies) {
      const sent = request(app).post("/api/portal/enquiry");
      const answer = await (type ? sent.set("Content-Type", type) : sent).send(Buffer.from(body));
      expect(answer.status, String(type)).toBe(415);
      expect(answer.body.msg).toBe("send the enquiry as JSON, with Content-Type: application/json");
    }
    await request(app)
      .post("/api/portal/enquiry")
      .set("Content-Type", "application/json; charset=utf-8")
      .send(JSON.stringify(fields(await apiToken(app), "as JSON")))
      .expect(202);
    expect(await stored(app)).toEqual(["as JSON"]);
  });

  it("takes a token only with the form's language and at the site it was served for", async () => {
    const app = start();
    const english = servedToken((await request(app).get("/portal/en/contact.html").expect(200)).text);
    clock += 10_000;
    const chinese = await request(app)
      .post("/portal/contact.html")
      .type("form")
      .send(form(fields(english, "wrong language")))
      .expect(400);
    expect(chinese.text).toContain("表单已过期或已提交过");
    await request(app).post("/api/portal/enquiry").send(fields(english, "wrong language")).expect(400);
    // Another site on the same FORM_SECRET: its tokens are not this one's.
    const elsewhere = start({ PUBLIC_ORIGIN: "https://shop.example.com" });
    const theirs = servedToken((await request(elsewhere).get("/portal/contact.html").expect(200)).text);
    clock += 10_000;
    await request(app).post("/api/portal/enquiry").send(fields(theirs, "another site's token")).expect(400);
    await request(app)
      .post("/api/portal/enquiry")
      .send({ ...fields(english, "its own language"), lang: "en" })
      .expect(202);
    expect(await stored(app)).toEqual(["its own language"]);
  });

  it("charges each token given out to the miss budget: past it, 429 with Retry-After", async () => {
    // 60 a minute: a burst of 6, and the clock stands still.
    const app = start({ MISS_RATE_PER_MIN: "60" });
    for (let i = 0; i < 6; i++) await request(app).get("/api/portal/enquiry/token").expect(200);
    const refused = await request(app).get("/api/portal/enquiry/token").expect(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.body.msg).toBe("too many requests for uncached content; try again later");
    // The page's form is a token too, and the same budget.
    await request(app).get("/portal/contact.html").expect(429);
  });

  it("answers a token asked for in a language the site has not with 400 naming the languages", async () => {
    const app = start();
    for (const query of ["?lang=fr", "?lang=en&lang=zh-CN"]) {
      const answer = await request(app).get(`/api/portal/enquiry/token${query}`).expect(400);
      expect(answer.body.msg).toBe("lang must be one of zh-CN, en");
    }
  });
});
