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

function unavailable(res: Response, what: string): void {
  const refusal = new HttpError(503, `the ${what} is temporarily unavailable`, { "Retry-After": String(RETRY_AFTER_S) });
  sendErrorAnswer(res, answerOf(refusal, false));
}

export function createSeo({ settings, reader, logger, now }: SeoDeps): Router {
  const router = Router();
  const origin = settings.publicOrigin;
  const generated = createGeneratedCache<string>(now);
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
  router.get(["/sitemap.xml", "/portal/sitemap.xml"], async (_req, res) => {
    warnRelative();
    let xml: string;
    try {
      const made = await generated.get("sitemap", async () => {
        const sitemap = await collectSitemap(readerFor(reader, res.locals.reqId), undefined, { contentLang, defaultLang: settings.lang });
        if (sitemap.failed.length === sitemap.sections) throw new Error("every upstream list failed");
        const partial = sitemap.failed.length > 0 || sitemap.failedLangs.length > 0;
        if (partial)
          logger.warn({ failed: [...sitemap.failed, ...sitemap.failedLangs] }, "sitemap is missing sections whose upstream calls failed");
        if (sitemap.truncated) logger.warn("sitemap holds more than 50000 URLs and was cut");
        return {
          value: sitemapXml(sitemap.entries, origin),
          freshForMs: partial ? Math.min(PARTIAL_KEEP_MS, sitemapKeep) : sitemapKeep,
        };
      });
      xml = made.value;
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, "sitemap unavailable");
      unavailable(res, "sitemap");
      return;
    }
    res.set({ "Content-Type": "application/xml; charset=utf-8", "Cache-Control": CACHE_CONTROL }).send(xml);
  });

  for (const [kind, lang] of (Object.keys(FEEDS) as FeedKind[]).flatMap((kind) => siteLangs().map((lang) => [kind, lang] as const))) {
    const keep = keepFor([apiKey(FEEDS[kind].detail.detail.items.call), keys.syscfg(), keys.sysauthor()]);
    router.get(feedHref(kind, lang), async (_req, res) => {
      warnRelative();
      let xml: string;
      try {
        const made = await generated.get(`rss:${kind}:${lang}`, async () => {
          const feed = await buildFeed(readerFor(reader, res.locals.reqId), kind, origin, lang, contentLang);
          return { value: feed.xml, freshForMs: feed.complete ? keep : Math.min(PARTIAL_KEEP_MS, keep) };
        });
        xml = made.value;
      } catch (err) {
        logger.warn({ err: err instanceof Error ? err.message : String(err), kind }, "feed unavailable");
        unavailable(res, "feed");
        return;
      }
      res.set({ "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": CACHE_CONTROL }).send(xml);
    });
  }
  return router;
}
