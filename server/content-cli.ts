/**
 * `npm run content -- export|import|backup|enquiries|push|preview-link ...` on DATABASE_URL's database
 * (docs/operations.md, "The content command"). Exit codes: 0 done, 1 failed, 2 usage.
 */
import { readFile, writeFile } from "node:fs/promises";
import { setSiteLangs } from "../shared/site-langs.ts";
import { type Config, ConfigError, parseConfig, withoutCredentials } from "./config.ts";
import { openContentDb } from "./content/db.ts";
import type { SiteFile } from "./content/site-file.ts";
import { exportSite, hasSite, importSite } from "./content/site-io.ts";
import { parseSiteText, serialiseSite } from "./content/site-text.ts";
import { backupSqlite } from "./content/sqlite-backup.ts";
import { createEnquiryStore, type Enquiry } from "./enquiries/store.ts";
import { previewLinkCommand } from "./preview/preview.ts";
import { queueAddressesByHand, queueImportChanges } from "./push/push.ts";

const USAGE = `usage: npm run content -- export FILE | import FILE | backup FILE | enquiries [--since DATE] [--json] | enquiries delete ID | push URL... | preview-link PATH [--hours N]
  export FILE   write all content to FILE as a site file (- for stdout)
  import FILE   replace all content with the site file FILE (- for stdin); search engines are told of what changed
  push URL...   tell the search engines configured (INDEXNOW_KEY, BAIDU_PUSH_TOKEN) of these pages on PUBLIC_ORIGIN
  preview-link PATH [--hours N]   print a link (PREVIEW_SECRET) showing PATH with its drafts, valid N hours (default 24)
  backup FILE   copy the live SQLite database to the new file FILE (for PostgreSQL use pg_dump)
  enquiries     list the enquiries received (since DATE, e.g. 2025-06-01), or export them as JSON
  enquiries delete ID   delete one enquiry (a visitor asking for their data to be erased)
The database is DATABASE_URL's (sqlite:PATH or postgres://...; default sqlite:./data/portal.db).`;

async function runContentCli(args: readonly string[]): Promise<number> {
  const [command, file, ...rest] = args;
  if (command === "enquiries") {
    const request = enquiriesRequestOf(args.slice(1));
    if (!request) {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    const databaseUrl = databaseUrlOrNothing();
    return databaseUrl === undefined ? 1 : runEnquiries(databaseUrl, request);
  }
  if (command === "push") {
    if (args.length < 2) {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    const config = configOrNothing();
    return config === undefined ? 1 : pushByHand(config, args.slice(1));
  }
  if (command === "preview-link") {
    const config = configOrNothing();
    return config === undefined ? 1 : printPreviewLink(config, args.slice(1));
  }
  if (
    (command !== "export" && command !== "import" && command !== "backup") ||
    !file ||
    rest.length > 0 ||
    (command === "backup" && file === "-")
  ) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = configOrNothing();
  if (config === undefined) return 1;
  const { databaseUrl } = config;
  if (command === "backup") return backupTo(databaseUrl, file);
  return command === "export" ? exportTo(databaseUrl, file) : importFrom(config, file);
}

function printPreviewLink(config: Config, args: readonly string[]): number {
  const outcome = previewLinkCommand(config, args, Date.now());
  if (!outcome.ok) {
    process.stderr.write(`${outcome.usage ? USAGE : outcome.error}\n`);
    return outcome.usage ? 2 : 1;
  }
  if (outcome.note) process.stderr.write(`${outcome.note}\n`);
  process.stdout.write(`${outcome.link}\n`);
  return 0;
}

function databaseUrlOrNothing(): string | undefined {
  return configOrNothing()?.databaseUrl;
}

function configOrNothing(): Config | undefined {
  try {
    const config = parseConfig(process.env);
    // As the server does: the addresses an import queues and those given by hand are read in the site's languages.
    setSiteLangs(config.langs);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return undefined;
  }
}

type EnquiriesRequest = { list: true; since?: number; json: boolean } | { list: false; delete: string };

function enquiriesRequestOf(args: readonly string[]): EnquiriesRequest | undefined {
  if (args[0] === "delete") return args.length === 2 && args[1] ? { list: false, delete: args[1] } : undefined;
  let since: number | undefined;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--json") json = true;
    else if (args[i] === "--since" && args[i + 1] && /^\d{4}-\d{2}-\d{2}/.test(args[i + 1] as string)) {
      since = Date.parse(args[++i] as string);
      if (Number.isNaN(since)) return undefined;
    } else return undefined;
  }
  return { list: true, since, json };
}

async function runEnquiries(databaseUrl: string, request: EnquiriesRequest): Promise<number> {
  const store = createEnquiryStore(databaseUrl);
  try {
    if (!request.list) {
      const deleted = await store.remove(request.delete);
      process.stderr.write(deleted ? `deleted enquiry ${request.delete}\n` : `no enquiry ${request.delete}\n`);
      return deleted ? 0 : 1;
    }
    const rows = await store.list({ since: request.since });
    process.stdout.write(request.json ? `${JSON.stringify(rows.map(exportedEnquiry), null, 2)}\n` : enquiryTable(rows));
    if (!request.json) process.stderr.write(`${rows.length} enquiries\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`enquiries failed: ${oneLine(error)}\n`);
    return 1;
  } finally {
    await store.close();
  }
}

function exportedEnquiry(row: Enquiry) {
  return {
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    lang: row.lang,
    name: row.name,
    email: row.email,
    phone: row.phone,
    company: row.company,
    subject: row.subject,
    message: row.message,
    consent: { at: new Date(row.consent_at).toISOString(), version: row.consent_version },
    clientHash: row.client_hash,
    delivery: { webhook: row.webhook_state, mail: row.mail_state, attempts: row.attempts, lastError: row.last_error },
  };
}

function enquiryTable(rows: readonly Enquiry[]): string {
  const flat = (text: string, max: number) => {
    const one = text.replace(/\s+/g, " ").trim();
    return one.length > max ? `${one.slice(0, max - 1)}…` : one;
  };
  return rows
    .map((row) =>
      [
        row.id,
        new Date(row.created_at).toISOString(),
        `webhook:${row.webhook_state} mail:${row.mail_state}`,
        flat(row.name, 30),
        flat(row.email || row.phone, 40),
        flat(row.subject || row.message, 60),
      ].join("\t"),
    )
    .map((line) => `${line}\n`)
    .join("");
}

async function backupTo(databaseUrl: string, file: string): Promise<number> {
  if (!databaseUrl.startsWith("sqlite:")) {
    process.stderr.write(
      'backup is for SQLite: DATABASE_URL is PostgreSQL, back it up with pg_dump (pg_dump -Fc -f FILE "$DATABASE_URL")\n',
    );
    return 1;
  }
  try {
    const pages = await backupSqlite(databaseUrl.slice("sqlite:".length), file);
    process.stderr.write(`backed up the database to ${file} (${pages} pages)\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`backup failed: ${oneLine(error)}\n`);
    return 1;
  }
}

async function exportTo(databaseUrl: string, file: string): Promise<number> {
  try {
    const content = await openContentDb(databaseUrl);
    let text: string;
    try {
      text = serialiseSite(await exportSite(content));
    } finally {
      await content.close();
    }
    if (file === "-") process.stdout.write(text);
    else await writeFile(file, text, "utf8");
    if (file !== "-") process.stderr.write(`exported the site to ${file}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`export failed: ${oneLine(error)}\n`);
    return 1;
  }
}

async function importFrom(config: Config, file: string): Promise<number> {
  const { databaseUrl } = config;
  let before: SiteFile | undefined;
  let site: SiteFile;
  try {
    // Parse before opening the database, so a bad file never touches it.
    site = parseSiteText(file === "-" ? await readStdin() : await readFile(file, "utf8"));
    const content = await openContentDb(databaseUrl);
    try {
      // What was there, to tell search engines of what the import changes.
      before = (await hasSite(content)) ? await exportSite(content).catch(() => undefined) : undefined;
      await importSite(content, site);
    } finally {
      await content.close();
    }
    process.stderr.write(`imported the site from ${file === "-" ? "stdin" : file}\n`);
  } catch (error) {
    process.stderr.write(`import failed: ${oneLine(error)}\n`);
    return 1;
  }
  try {
    const queued = await queueImportChanges(config.push, databaseUrl, before, site);
    if (queued > 0) process.stderr.write(`queued ${queued} changed page addresses for search engines\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`the import is done, but search engines will not be told of it: ${oneLine(error)}\n`);
    return 1;
  }
}

async function pushByHand(config: Config, urls: readonly string[]): Promise<number> {
  try {
    const { engines, queued } = await queueAddressesByHand(config.push, config.databaseUrl, urls);
    const waiting = urls.length * engines.length - queued;
    process.stderr.write(
      `queued ${urls.length} addresses for ${engines.join(" and ")}${waiting > 0 ? ` (${waiting} were waiting already)` : ""}\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`push failed: ${oneLine(error)}\n`);
    return 1;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A driver's message may quote the connection string: never its credentials. */
function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return withoutCredentials(message.replace(/\s+/g, " ").trim());
}

process.exitCode = await runContentCli(process.argv.slice(2));
