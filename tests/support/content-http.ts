/** Small fetch helpers for talking to a started content API over 127.0.0.1. */
import type { Envelope } from "../../shared/envelope.ts";

export interface JsonAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: Envelope<T>;
}

export async function getJson<T = unknown>(origin: string, path: string, init: RequestInit = {}): Promise<JsonAnswer<T>> {
  const response = await fetch(`${origin}${path}`, init);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Envelope<T> };
}

export function putReader(origin: string, body: unknown, headers: Record<string, string> = { "content-type": "application/json" }) {
  return getJson<null>(origin, "/api/portal/reader/reader", {
    method: "PUT",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
