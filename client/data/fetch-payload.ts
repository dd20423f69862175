import { API_PREFIX, payloadKindOf } from "../../shared/call-table.ts";
import { payloadOf } from "../../shared/envelope.ts";
import { PREVIEW_API_PREFIX } from "../../shared/preview.ts";
import { ApiError } from "./api-error.ts";
import { textOf } from "./content-values.ts";

/** Where data calls go: /api/portal, or in a preview its own calls under /portal, which carry its cookie. */
let dataPrefix = API_PREFIX;

/** Once, before hydration, on a preview's page (docs/behaviour.md#preview). */
export function readPreviewData(): void {
  dataPrefix = PREVIEW_API_PREFIX;
}

/** SWR's fetcher: GETs a key from /api/portal (a preview's, in a preview) and returns its payload, or throws an ApiError. */
export async function fetchPayload<T>(key: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(dataPrefix + key, { headers: { accept: "application/json" } });
  } catch {
    throw new ApiError(0, "network error");
  }
  let envelope: { code?: unknown; msg?: unknown; data?: unknown };
  try {
    envelope = await response.json();
  } catch {
    throw new ApiError(response.status || 502, "invalid answer");
  }
  if (!response.ok || envelope.code !== 0) {
    const code = typeof envelope.code === "number" ? envelope.code : undefined;
    throw new ApiError(response.ok ? 502 : response.status, textOf(envelope.msg) || "request failed", code);
  }
  return payloadOf<T>(envelope, payloadKindOf(key) ?? "object");
}
