/** docs/api/openapi.json is what `npm run openapi` makes from the call table now: no call missing, none stale. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../scripts/openapi-document.ts";
import { PROJECT_ROOT } from "../../server/project-root.ts";
import { API_PREFIX, CALL_TABLE } from "../../shared/call-table.ts";

const read = (file: string) => JSON.parse(readFileSync(path.join(PROJECT_ROOT, file), "utf8"));

describe("docs/api/openapi.json", () => {
  const written = read("docs/api/openapi.json");

  it("is current: made again from the call table, it is the file (npm run openapi writes it)", () => {
    expect(written).toEqual(openApiDocument(read("package.json").version));
  });

  it("describes every call of the call table, by its id", () => {
    const operations = Object.entries(written.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([p, methods]) =>
      Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${p} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(CALL_TABLE.map((c) => `${c.method} ${API_PREFIX}${c.path} ${c.id}`).sort());
    expect(written.openapi).toBe("3.1.0");
  });
});
