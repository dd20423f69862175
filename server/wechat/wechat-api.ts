// WeChat's two calls a signature needs, `/cgi-bin/token` and `/cgi-bin/ticket/getticket`, each with a deadline and
// a bounded answer; what goes wrong is said without the AppSecret (docs/behaviour.md#sharing-in-wechat).
import { z } from "zod";
import type { WechatConfig } from "../config.ts";

/** Both answers are a few hundred bytes. */
const MAX_ANSWER_BYTES = 16 * 1024;
const MAX_ERRMSG_CHARS = 200;

export type WechatCall = "token" | "ticket";

/** WeChat's own answer or a failure to get one; the message never holds the secret nor the access token. */
export class WechatApiError extends Error {
  readonly call: WechatCall;
  readonly errcode: number | undefined;

  constructor(call: WechatCall, message: string, errcode?: number) {
    super(message);
    this.call = call;
    this.errcode = errcode;
  }
}

/** The access token was replaced or has expired: a new one is needed. */
export const STALE_TOKEN_CODES = new Set([40001, 40014, 42001]);

const errorAnswer = z.object({ errcode: z.number().int(), errmsg: z.string().optional() });
const tokenAnswer = z.object({ access_token: z.string().min(1).max(2048), expires_in: z.number().int().positive() });
const ticketAnswer = z.object({ errcode: z.literal(0), ticket: z.string().min(1).max(2048), expires_in: z.number().int().positive() });

export interface Issued {
  value: string;
  expiresInMs: number;
}

export interface WechatApi {
  token(): Promise<Issued>;
  ticket(accessToken: string): Promise<Issued>;
}

async function readCapped(response: Response): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > MAX_ANSWER_BYTES || !response.body) {
    await response.body?.cancel();
    if (declared > MAX_ANSWER_BYTES) throw new Error(`an answer of ${declared} bytes`);
    return "";
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.length;
    if (bytes > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error(`an answer over ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function createWechatApi({ appId, appSecret, apiBase }: WechatConfig, timeoutMs: number): WechatApi {
  const hidden = [appSecret];
  /** The secret and the last few access tokens. */
  const hide = (value: string) => {
    if (hidden.includes(value)) return;
    hidden.push(value);
    if (hidden.length > 4) hidden.splice(1, 1);
  };
  const scrub = (text: string) => hidden.reduce((out, secret) => out.split(secret).join("***"), text);
  const path: Record<WechatCall, string> = { token: "/cgi-bin/token", ticket: "/cgi-bin/ticket/getticket" };

  async function call(which: WechatCall, query: Record<string, string>): Promise<unknown> {
    const url = `${apiBase}${path[which]}?${new URLSearchParams(query)}`;
    const fail = (message: string, errcode?: number) => new WechatApiError(which, scrub(`WeChat's ${path[which]} ${message}`), errcode);
    let text: string;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
      text = await readCapped(response);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    } catch (error) {
      // A fetch error's cause names the address and the reason; the URL it was given (with the secret) is never quoted.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
      const reason =
        error instanceof Error && error.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (cause ?? String(error));
      throw fail(`could not be read: ${reason}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw fail("answered something other than JSON");
    }
    const error = errorAnswer.safeParse(json);
    if (error.success && error.data.errcode !== 0) {
      const errmsg = (error.data.errmsg ?? "").slice(0, MAX_ERRMSG_CHARS);
      throw fail(`answered errcode ${error.data.errcode} (${errmsg})`, error.data.errcode);
    }
    return json;
  }

  return {
    async token() {
      const json = await call("token", { grant_type: "client_credential", appid: appId, secret: appSecret });
      const parsed = tokenAnswer.safeParse(json);
      if (!parsed.success) throw new WechatApiError("token", "WeChat's /cgi-bin/token answered without an access_token and expires_in");
      hide(parsed.data.access_token);
      return { value: parsed.data.access_token, expiresInMs: parsed.data.expires_in * 1000 };
    },
    async ticket(accessToken) {
      hide(accessToken);
      const json = await call("ticket", { access_token: accessToken, type: "jsapi" });
      const parsed = ticketAnswer.safeParse(json);
      if (!parsed.success)
        throw new WechatApiError("ticket", "WeChat's /cgi-bin/ticket/getticket answered without a ticket and expires_in");
      return { value: parsed.data.ticket, expiresInMs: parsed.data.expires_in * 1000 };
    },
  };
}
