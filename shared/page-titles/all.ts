/** Every language's page names at once, for the server's own documents (feeds), which need no loading. */
import { addPageTitles } from "../page-titles.ts";
import { TITLES as ar } from "./ar.ts";
import { TITLES as de } from "./de.ts";
import { TITLES as es } from "./es.ts";
import { TITLES as fr } from "./fr.ts";
import { TITLES as ja } from "./ja.ts";
import { TITLES as ko } from "./ko.ts";
import { TITLES as ru } from "./ru.ts";
import { TITLES as zhTW } from "./zh-tw.ts";

export function addAllPageTitles(): void {
  for (const [lang, titles] of [
    ["zh-TW", zhTW],
    ["ja", ja],
    ["ko", ko],
    ["es", es],
    ["fr", fr],
    ["de", de],
    ["ru", ru],
    ["ar", ar],
  ] as const)
    addPageTitles(lang, titles);
}
