/**
 * The Nu Html Checker (vnu-jar) on the machine's Java: every document in one JVM start,
 * errors only (warnings are advice, not failures).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);

export interface VnuError {
  message: string;
  line?: number;
  extract?: string;
}

interface VnuMessage {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/** Checks each named document; answers the errors per name (an empty list for a valid one). */
export async function checkHtml(documents: Map<string, string>, java = process.env.JAVA ?? "java"): Promise<Map<string, VnuError[]>> {
  const dir = await mkdtemp(path.join(tmpdir(), "portal-vnu-"));
  try {
    const files = new Map<string, string>();
    let index = 0;
    for (const [name, html] of documents) {
      const file = path.join(dir, `doc-${index++}.html`);
      await writeFile(file, html);
      files.set(pathToFileURL(file).href, name);
    }
    const jar = require.resolve("vnu-jar/build/dist/vnu.jar");
    const stdout = await new Promise<string>((resolve, reject) => {
      // Exit status 1 only says "errors found"; the JSON tells which.
      execFile(
        java,
        ["-jar", jar, "--errors-only", "--format", "json", "--stdout", ...[...files.keys()].map((url) => new URL(url).pathname)],
        { maxBuffer: 64 * 1024 * 1024 },
        (err, out, stderr) => {
          if (err && !out.trim().startsWith("{")) reject(new Error(`vnu failed: ${err.message}\n${stderr}`));
          else resolve(out);
        },
      );
    });
    const result = JSON.parse(stdout) as { messages: VnuMessage[] };
    const errors = new Map<string, VnuError[]>([...documents.keys()].map((name) => [name, []]));
    for (const message of result.messages) {
      if (message.type !== "error" && message.subType !== "fatal") continue;
      const name = message.url ? files.get(message.url.replace(/^file:\/(?!\/)/, "file:///")) : undefined;
      if (!name) throw new Error(`vnu: ${message.message}`);
      errors.get(name)?.push({ message: message.message, line: message.lastLine, extract: message.extract });
    }
    return errors;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
