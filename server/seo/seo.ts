/**
 * /robots.txt, the sitemap and the RSS feeds (docs/behaviour.md#search-engines, #feeds). Mounted
 * before the pages router, which would take /portal/message/news/rss.xml for a news detail.
 */
import { type Response, Router } from "express";
import { FEEDS, type FeedKind, feedHref } from "../../shared/feeds.ts";
import { apiKey, keys } from "../../shared/page-data.ts";
import type { Lang } from "../../shared/page-state.ts";
import { siteLangs } from "../../shared/site-langs.ts";
import { type ApiReader, readerFor, ttlFor } from "../api-proxy/api-reader.ts";
import { createGeneratedCache } from "../cache/generated-cache.ts";
import { type PreparedAnswer, prepareAnswer, sendPrepared } from "../cache/prepared-answer.ts";
import { etagOf } from "../cache/response-cache.ts";
import type { Config } from "../config.ts";
import { answerOf, HttpError, sendErrorAnswer } from "../http/errors.ts";
import type { Logger } from "../logger.ts";
import { robotsTxt } from "./robots.ts";
import { buildFeed } from "./rss.ts";
import { collectSitemap, sitemapCalls, sitemapXml } from "./sitemap.ts";

/** What the feeds and the sitemap read of the configuration. */
interface SeoSettings {
  publicOrigin: string | undefined;
  /** The TTLs, so a document is kept as long as its data. */
  cache: Config["cache"];
  contentLang: boolean;
  lang: Lang;
}

interface SeoDeps {
  settings: SeoSettings;
  reader: ApiReader;
  logger: Logger;
  now?: () => number;
}

const CACHE_CONTROL = "public, max-age=300";
const RETRY_AFTER_S = 60;
/** A document missing data whose call failed. */
const PARTIAL_KEEP_MS = 5000;
/** Even with CACHE_TTL_MS=0, so a burst of crawlers makes one. */
const MIN_KEEP_MS = 1000;

/** Room for both codings of a document: a feed's Chinese text takes about a third of it in each. */
const DOCUMENT_RESERVED_SHARE = 1;

/**
 * A document kept ready to send in each coding, as the caches' answers are: compressed once when a client first
 * takes a coding, not for every request (a feed's brotli stream for each reader cost its CPU and several MB each).
 */
function preparedDocument(xml: string, contentType: string): Promise<PreparedAnswer> {
  const body = Buffer.from(xml);
  const headers: [string, string][] = [
    ["Content-Type", contentType],
    ["Cache-Control", CACHE_CONTROL],
    ["Vary", "Accept-Encoding"],
  ];
  return prepareAnswer(200, body, etagOf(body), headers, "full", DOCUMENT_RESERVED_SHARE);
}

function unavailable(res: Response, what: string): void {
  const refusal = new HttpError(503, `the ${what} is temporarily unavailable`, { "Retry-After": String(RETRY_AFTER_S) });
  sendErrorAnswer(res, answerOf(refusal, false));
}

export function createSeo({ settings, reader, logger, now }: SeoDeps): Router {
  const router = Router();
  const origin = settings.publicOrigin;
  const generated = createGeneratedCache<PreparedAnswer>(now);
  const keepFor = (callKeys: string[]) =>
    Math.max(MIN_KEEP_MS, Math.min(...callKeys.map((key) => ttlFor(key.split("?")[0] as string, settings.cache))));

  let warned = false;
  const warnRelative = () => {
    if (origin || warned) return;
    warned = true;
    logger.warn("PUBLIC_ORIGIN is not set: the sitemap and feeds use root-relative URLs; set it to the site's public origin");
  };

  router.get("/robots.txt", (_req, res) => {
    res.set({ "Content-Type": "text/plain; charset=utf-8", "Cache-Control": CACHE_CONTROL }).send(robotsTxt(origin));
  });

  const { contentLang } = settings;
  const sitemapKeep = keepFor(sitemapCalls().map((id) => apiKey(id)));
  router.get(["/sitemap.xml", "/portal/sitemap.xml"], async (req, res) => {
    warnRelative();
    let document: PreparedAnswer;
    try {
      const made = await generated.get("sitemap", async () => {
        const sitemap = await collectSitemap(readerFor(reader, res.locals.reqId), undefined, { contentLang, defaultLang: settings.lang });
        if (sitemap.failed.length === sitemap.sections) throw new Error("every upstream list failed");
        const partial = sitemap.failed.length > 0 || sitemap.failedLangs.length > 0;
        if (partial)
          logger.warn({ failed: [...sitemap.failed, ...sitemap.failedLangs] }, "sitemap is missing sections whose upstream calls failed");
        if (sitemap.truncated) logger.warn("sitemap holds more than 50000 URLs and was cut");
        return {
          value: await preparedDocument(sitemapXml(sitemap.entries, origin), "application/xml; charset=utf-8"),
          freshForMs: partial ? Math.min(PARTIAL_KEEP_MS, sitemapKeep) : sitemapKeep,
        };
      });
      document = made.value;
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, "sitemap unavailable");
      unavailable(res, "sitemap");
      return;
    }
    sendPrepared(req, res, document, []);
  });

  for (const [kind, lang] of (Object.keys(FEEDS) as FeedKind[]).flatMap((kind) => siteLangs().map((lang) => [kind, lang] as const))) {
    const keep = keepFor([apiKey(FEEDS[kind].detail.detail.items.call), keys.syscfg(), keys.sysauthor()]);
    router.get(feedHref(kind, lang), async (req, res) => {
      warnRelative();
      let document: PreparedAnswer;
      try {
        const made = await generated.get(`rss:${kind}:${lang}`, async () => {
          const feed = await buildFeed(readerFor(reader, res.locals.reqId), kind, origin, lang, contentLang);
          const value = await preparedDocument(feed.xml, "application/rss+xml; charset=utf-8");
          return { value, freshForMs: feed.complete ? keep : Math.min(PARTIAL_KEEP_MS, keep) };
        });
        document = made.value;
      } catch (err) {
        logger.warn({ err: err instanceof Error ? err.message : String(err), kind }, "feed unavailable");
        unavailable(res, "feed");
        return;
      }
      sendPrepared(req, res, document, []);
    });
  }
  return router;
}
