/**
 * The OpenAPI 3.1 description of /api/portal, made from the call table
 * (shared/call-table.ts) so it cannot drift from what the server answers. Pure: the unit
 * test makes it again and compares it with docs/api/openapi.json; `npm run openapi` writes it.
 */
import { API_PREFIX, CALL_TABLE, type CallEntry, type PayloadKind, type QueryParam } from "../shared/call-table.ts";
import { MAX_ID, MAX_PAGE_INDEX, MAX_PAGE_SIZE } from "../shared/params.ts";

type Schema = Record<string, unknown>;

const id = { type: "integer", minimum: 1, maximum: MAX_ID };
const idList = { type: "string", pattern: "^\\d+(,\\d+)*$", description: "ids joined by commas (at most 1000)" };

/** Each query parameter means the same on every call that takes it (shared/api-calls.ts), `type` aside. */
const QUERY: Record<QueryParam, (call: CallEntry) => Schema> = {
  imgScope: () => ({ type: "integer", minimum: 0, maximum: 9 }),
  pageIndex: () => ({ type: "integer", minimum: 0, maximum: MAX_PAGE_INDEX, description: "0-based page" }),
  pageMaxCount: () => ({ type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, description: "page size" }),
  jobTypeIds: () => ({ ...idList, description: "job types to list; empty or absent: any" }),
  jobAddrIds: () => ({ ...idList, description: "job places to list; empty or absent: any" }),
  type: (call) => ({ type: "integer", enum: [1, 2], description: call.tag === "reader" ? "1 notice, 2 news" : "1 social, 2 campus" }),
  pid: () => ({ ...id, description: "the notice's or news item's id" }),
};

const DATA: Record<PayloadKind, Schema> = {
  object: { type: "object", description: "missing or null reads as {}" },
  list: { type: "array", items: { type: "object" }, description: "missing or null reads as []" },
  paged: {
    type: "object",
    properties: {
      pageDataList: { type: "array", items: { type: "object" } },
      totalCount: { type: "integer", minimum: 0 },
      totalPageCount: { type: "integer", minimum: 0 },
    },
    description: "missing or null reads as an empty page",
  },
  number: { type: "integer", minimum: 0 },
};

const envelope = (data: Schema): Schema => ({
  type: "object",
  required: ["code", "msg", "data"],
  properties: { code: { type: "integer", const: 0 }, msg: { type: "string" }, data },
});

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

function operation(call: CallEntry): Schema {
  const parameters: Schema[] = [];
  if (call.path.includes("{id}")) parameters.push({ name: "id", in: "path", required: true, schema: id });
  for (const [name, param] of Object.entries(call.query) as [QueryParam, CallEntry["query"][QueryParam]][]) {
    const schema = QUERY[name](call);
    parameters.push({
      name,
      in: "query",
      required: param?.required ?? false,
      schema: param?.fallback === undefined ? schema : { ...schema, default: param.fallback },
    });
  }
  const responses: Record<string, unknown> = {
    "200": {
      description: call.uncached
        ? "answered by the upstream every time"
        : "from the cache, or the upstream on a miss (stale while the upstream fails)",
      headers: call.uncached ? {} : { ETag: { schema: { type: "string" }, description: "weak; If-None-Match gets a 304" } },
      content: { "application/json": { schema: envelope(DATA[call.payload]) } },
    },
    ...(call.uncached ? {} : { "304": { description: "If-None-Match matched" } }),
    "400": error("a bad parameter, named in msg"),
    ...(call.detail ? { "404": error("no such item") } : {}),
    "429": error("too many requests from this client (Retry-After says when to ask again)"),
    "502": error("the upstream failed and nothing is cached"),
    "504": error("the upstream did not answer in time and nothing is cached"),
  };
  return {
    operationId: call.id,
    tags: [call.tag],
    ...(call.method === "PUT"
      ? {
          summary: "counts one read of a notice or news item (a client's repeats within a window are not counted)",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { type: "object", required: ["type", "pid"], properties: { type: QUERY.type(call), pid: QUERY.pid(call) } },
              },
            },
          },
        }
      : {}),
    parameters,
    responses,
  };
}

export function openApiDocument(version: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const call of CALL_TABLE) {
    const path = `${API_PREFIX}${call.path}`;
    paths[path] = { ...paths[path], [call.method.toLowerCase()]: operation(call) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Portal site API",
      version,
      description:
        "The calls the site's pages make, answered from a cache in front of the content API (docs/behaviour.md#api). Every body is an envelope { code, msg, data }; code 0 is success. The classify calls a deployment configures (PORTAL_CLASSIFY) are GET list calls with no parameters at their configured paths, not listed here. Generated from shared/call-table.ts by npm run openapi.",
      license: { name: "MIT", identifier: "MIT" },
    },
    paths,
    components: {
      schemas: {
        Error: {
          type: "object",
          required: ["code", "msg", "data"],
          properties: { code: { type: "integer", description: "the HTTP status" }, msg: { type: "string" }, data: { type: "null" } },
        },
      },
    },
  };
}
