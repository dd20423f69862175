/**
 * Content operations for operators:
 *   npm run content -- export site.json   (or - for stdout)
 *   npm run content -- import site.json   (or - for stdin)
 *   npm run content -- backup portal-backup.db   (SQLite; PostgreSQL has pg_dump)
 * The database is DATABASE_URL's (default sqlite:./data/portal.db). An import that
 * fails changes nothing. Exit codes: 0 done, 1 failed, 2 usage.
 */
import { readFile, writeFile } from "node:fs/promises";
import { ConfigError, parseConfig, withoutCredentials } from "../config.ts";
import { openContentDb } from "./db.ts";
import { exportSite, importSite } from "./site-io.ts";
import { parseSiteText, serialiseSite } from "./site-text.ts";
import { backupSqlite } from "./sqlite-backup.ts";

const USAGE = `usage: npm run content -- export FILE | import FILE | backup FILE
  export FILE   write all content to FILE as a site file (- for stdout)
  import FILE   replace all content with the site file FILE (- for stdin)
  backup FILE   copy the live SQLite database to the new file FILE (for PostgreSQL use pg_dump)
The database is DATABASE_URL's (sqlite:PATH or postgres://...; default sqlite:./data/portal.db).`;

async function runContentCli(args: readonly string[]): Promise<number> {
  const [command, file, ...rest] = args;
  if (
    (command !== "export" && command !== "import" && command !== "backup") ||
    !file ||
    rest.length > 0 ||
    (command === "backup" && file === "-")
  ) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let databaseUrl: string;
  try {
    databaseUrl = parseConfig(process.env).databaseUrl;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  if (command === "backup") return backupTo(databaseUrl, file);
  return command === "export" ? exportTo(databaseUrl, file) : importFrom(databaseUrl, file);
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

async function importFrom(databaseUrl: string, file: string): Promise<number> {
  try {
    // Parse before opening the database, so a bad file never touches it.
    const site = parseSiteText(file === "-" ? await readStdin() : await readFile(file, "utf8"));
    const content = await openContentDb(databaseUrl);
    try {
      await importSite(content, site);
    } finally {
      await content.close();
    }
    process.stderr.write(`imported the site from ${file === "-" ? "stdin" : file}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`import failed: ${oneLine(error)}\n`);
    return 1;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** An error's message on one line; a driver's may quote the connection string, so never its credentials. */
function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return withoutCredentials(message.replace(/\s+/g, " ").trim());
}

process.exitCode = await runContentCli(process.argv.slice(2));
