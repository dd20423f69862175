/** `npm run openapi`: writes docs/api/openapi.json from the call table (scripts/openapi-document.ts). */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../server/project-root.ts";
import { openApiDocument } from "./openapi-document.ts";

const { version } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string };
const file = path.join(PROJECT_ROOT, "docs/api/openapi.json");
writeFileSync(file, `${JSON.stringify(openApiDocument(version), null, 2)}\n`);
// In the project's own format, so `npm run lint` finds nothing to change in it.
spawnSync(path.join(PROJECT_ROOT, "node_modules/.bin/biome"), ["format", "--write", file], { stdio: "ignore" });
console.log("wrote docs/api/openapi.json");
