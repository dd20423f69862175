/** `npm run env-example`: writes .env.example from the configuration table of docs/operations.md (scripts/env-example-text.ts). */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../server/project-root.ts";
import { envExampleText } from "./env-example-text.ts";

writeFileSync(path.join(PROJECT_ROOT, ".env.example"), envExampleText(readFileSync(path.join(PROJECT_ROOT, "docs/operations.md"), "utf8")));
console.log("wrote .env.example");
