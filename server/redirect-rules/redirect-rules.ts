// REDIRECTS_FILE's rules (docs/redirects.md): answered before Express and before the page cache, read again when the
// file changes. A 410 rule's answer is the site's not-found page, which Express renders (`goneHandler`).
import { readFileSync, statSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import type { RequestFastPath } from "../cache/request-fast-path.ts";
import type { Logger } from "../logger.ts";
import type { RedirectFigures } from "../operations/app-metrics.ts";
import { RuleTable } from "./rule-table.ts";
import { parseRulesFile, RulesFileError } from "./rules-file.ts";
import { watchRulesFile } from "./rules-watch.ts";

/**
 * Never redirected, whatever the rules say: the API, images, assets, media, health, purge, robots and sitemaps. Compared
 * as Express routes them: whatever the letters' case, with or without a final slash.
 */
const NEVER = ["/api/portal", "/portal/_img", "/portal/_purge", "/portal/assets/", "/portal/media/", "/portal/healthz", "/portal/readyz"];
const NEVER_EXACT = new Set(["/robots.txt", "/sitemap.xml", "/portal/sitemap.xml", "/metrics", "/healthz", "/readyz"]);

/** Some 600,000 rules: past it, a mistake (a log file named instead) rather than a site. */
const MAX_FILE_BYTES = 64 << 20;

/** How often the file is looked at when fs.watch says nothing: well within the 5 s a change may take. */
const POLL_MS = 1000;

/** A rules file that cannot be used: its message names the file and the line. */
export class RedirectsFileError extends Error {}

export function loadRedirectsFile(file: string): RuleTable {
  let text: string;
  try {
    if (statSync(file).size > MAX_FILE_BYTES) throw new RedirectsFileError(`${file}: larger than ${MAX_FILE_BYTES >> 20} MB`);
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (err instanceof RedirectsFileError) throw err;
    throw new RedirectsFileError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
  try {
    return parseRulesFile(text).table;
  } catch (err) {
    if (err instanceof RulesFileError) throw new RedirectsFileError(`${file} line ${err.line}: ${err.problem}`);
    throw err;
  }
}

export interface RedirectRulesSettings {
  /** Undefined: no rules. */
  file: string | undefined;
  /** Exact paths of ours besides (the IndexNow key file), compared as written, as their routes are. */
  ownPaths?: readonly string[];
  pollMs?: number;
}

interface RedirectRulesDeps {
  logger: Logger;
  commonHeaders: readonly (readonly [string, string])[];
  /** Already loaded (at start, where a bad file stops the process); else loaded here. */
  table?: RuleTable;
}

export interface RedirectRules {
  fastPath: RequestFastPath;
  /** Sends the not-found page, status 410, for a request a 410 rule matched; the rest go on. */
  goneHandler(send: ((req: Request, res: Response, status: 410) => Promise<void>) | undefined): RequestHandler;
  figures(): RedirectFigures;
  close(): void;
}

function isNeverRedirected(url: string, ownPaths: ReadonlySet<string>): boolean {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (ownPaths.has(path)) return true;
  const lower = path.toLowerCase();
  const bare = lower.length > 1 && lower.endsWith("/") ? lower.slice(0, -1) : lower;
  return NEVER_EXACT.has(bare) || NEVER.some((prefix) => bare === prefix || lower.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`));
}

export function createRedirectRules(settings: RedirectRulesSettings, deps: RedirectRulesDeps): RedirectRules {
  const { file } = settings;
  const ownPaths = new Set(settings.ownPaths);
  let table = deps.table ?? (file ? loadRedirectsFile(file) : new RuleTable());
  let loadFailures = 0;
  const reload = () => {
    if (!file) return;
    try {
      table = loadRedirectsFile(file);
      deps.logger.info({ rules: table.size }, "REDIRECTS_FILE read again");
    } catch (err) {
      if (!(err instanceof RedirectsFileError)) throw err;
      loadFailures++;
      deps.logger.error(`REDIRECTS_FILE ${err.message}; the ${table.size} rules before it stay in force`);
    }
  };
  const watch = file ? watchRulesFile(file, reload, settings.pollMs ?? POLL_MS) : undefined;
  const gone = new WeakSet<IncomingMessage>();
  const baseHeaders = deps.commonHeaders.flat();

  const fastPath: RequestFastPath = (req, res) => {
    if (table.size === 0 || (req.method !== "GET" && req.method !== "HEAD")) return undefined;
    const url = req.url ?? "";
    if (isNeverRedirected(url, ownPaths)) return undefined;
    const answer = table.lookup(url);
    if (!answer) return undefined;
    if (answer.location === undefined) {
      gone.add(req);
      // Past the page cache, which may hold a page this rule has since taken over.
      return "express";
    }
    const temporary = answer.status === 302 || answer.status === 307;
    const cacheControl = temporary ? "no-store" : "public, max-age=3600";
    try {
      res.writeHead(answer.status, baseHeaders.concat(["Location", answer.location, "Cache-Control", cacheControl, "Content-Length", "0"]));
    } catch (err) {
      // A Location no header may carry (the rules are checked when loaded, so never expected): the site answers instead.
      deps.logger.error({ err, url: url.slice(0, 200) }, "redirect rule made an unsendable Location");
      return undefined;
    }
    res.end();
    return "HIT";
  };

  return {
    fastPath,
    goneHandler: (send) => (req, res, next) => {
      if (!gone.has(req)) {
        next();
        return;
      }
      if (!send) {
        res.status(410).type("text/plain").set("Cache-Control", "no-store").send("Gone\n");
        return;
      }
      return send(req, res, 410);
    },
    figures: () => ({ rules: table.size, loadFailures }),
    close: () => watch?.close(),
  };
}
