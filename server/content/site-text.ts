/** The site file as text: parsed strictly, and written in the one form export and import agree on. */
import { readFile } from "node:fs/promises";
import { parseSiteFile, type SiteFile } from "./site-file.ts";

export class SiteImportError extends Error {
  override name = "SiteImportError";
}

export function parseSiteText(text: string): SiteFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SiteImportError(`(root): not valid JSON (${reason.split("\n")[0]})`);
  }
  return validateSite(json);
}

export function validateSite(json: unknown): SiteFile {
  const parsed = parseSiteFile(json);
  if (!parsed.ok) throw new SiteImportError(parsed.error);
  // PostgreSQL text cannot hold NUL while SQLite can: refuse it on both, by name.
  const nul = pathOfNul(parsed.site, "");
  if (nul !== undefined) throw new SiteImportError(`${nul}: must not contain NUL characters`);
  return parsed.site;
}

function pathOfNul(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = pathOfNul(item, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = pathOfNul(item, path ? `${path}.${key}` : key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export async function readSiteFile(path: string): Promise<SiteFile> {
  return parseSiteText(await readFile(path, "utf8"));
}

export function serialiseSite(site: SiteFile): string {
  return `${JSON.stringify(site, null, 2)}\n`;
}
