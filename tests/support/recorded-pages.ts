/**
 * Answers compared byte for byte with files recorded from an earlier build: the proof that a change to how
 * pages are made leaves what they are alone. Only what differs from build to build is put aside: the hashed
 * names of the built files and the contact form's token.
 */
import { expect } from "vitest";

/** A built file's hash (`index-BxY_12ab.js`) and a form token are all that changes between builds of the same pages. */
export const normalised = (body: string) =>
  body
    .replace(/(\/portal\/assets\/[\w.-]+?)-[\w-]{8}\.(js|css|woff2|svg|png)/g, "$1-HASH.$2")
    .replace(/("token":")[^"]+"/g, '$1TOKEN"')
    .replace(/(name="token" value=")[^"]+"/g, '$1TOKEN"');

/** The recording of one address in `dir` (relative to the test file). */
export const recordingOf = (dir: string, path: string) => `${dir}/${path.replace(/^\//, "").replace(/[/?=&%]/g, "_") || "root"}.txt`;

/** Each address's status, type, language and normalised body against its recording in `dir`. */
export async function expectAsRecorded(origin: string, paths: readonly string[], dir: string): Promise<void> {
  for (const path of [...new Set(paths)]) {
    const res = await fetch(origin + path, { redirect: "manual" });
    const head = `${res.status} ${res.headers.get("content-type")} ${res.headers.get("content-language") ?? ""}\n`;
    await expect(head + normalised(await res.text()), path).toMatchFileSnapshot(recordingOf(dir, path));
  }
}
