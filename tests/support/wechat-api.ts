/**
 * A stand-in for WeChat's API on loopback, speaking its protocol: `/cgi-bin/token` issues an
 * access token for the right AppID and AppSecret (each new one replaces the one before, as
 * WeChat's does), `/cgi-bin/ticket/getticket` a jsapi_ticket for the current token. It checks
 * what it receives, answers WeChat's documented errors (40013, 40125, 40001, 40164, 45009, ...)
 * when told to, and counts every fetch.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export const WECHAT_APP_ID = "wx0123456789abcdef";
/** Distinctive, so a test can search logs and metrics for it. */
export const WECHAT_APP_SECRET = "5ec7e75ec7e75ec7e75ec7e75ec7e7ab";

export interface WechatError {
  errcode: number;
  errmsg: string;
}

/** WeChat's documented answers (its global return codes). */
export const WECHAT_ERRORS = {
  invalidCredential: { errcode: 40001, errmsg: "invalid credential, access_token is invalid or not latest" },
  notWhitelisted: { errcode: 40164, errmsg: "invalid ip 127.0.0.1 ipv6 ::ffff:127.0.0.1, not in whitelist" },
  freqLimit: { errcode: 45009, errmsg: "reach max api daily quota limit" },
} satisfies Record<string, WechatError>;

export interface StandInWechat {
  url: string;
  /** Seconds each answer says it lasts. */
  tokenExpiresIn: number;
  ticketExpiresIn: number;
  /** Answered instead of a token / a ticket while set. */
  tokenError: WechatError | undefined;
  ticketError: WechatError | undefined;
  /** Calls are received and counted but never answered while set. */
  hang: boolean;
  tokenFetches: number;
  ticketFetches: number;
  /** What each call received that WeChat would refuse (wrong grant type, type, method...). */
  complaints: string[];
  /** The last ticket issued. */
  ticket: string | undefined;
  /** Another party fetched a token: the current one is no longer valid. */
  replaceToken(): void;
  close(): Promise<void>;
}

export async function startStandInWechat(): Promise<StandInWechat> {
  let serial = 0;
  let currentToken: string | undefined;
  const send = (res: import("node:http").ServerResponse, body: object) => {
    res.writeHead(200, { "Content-Type": "application/json; encoding=utf-8" }).end(JSON.stringify(body));
  };
  const state: Omit<StandInWechat, "url" | "close" | "replaceToken"> = {
    tokenExpiresIn: 7200,
    ticketExpiresIn: 7200,
    tokenError: undefined,
    ticketError: undefined,
    hang: false,
    tokenFetches: 0,
    ticketFetches: 0,
    complaints: [],
    ticket: undefined,
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://wechat.invalid");
    const query = url.searchParams;
    if (req.method !== "GET") state.complaints.push(`${req.method} ${url.pathname}`);
    if (url.pathname === "/cgi-bin/token") {
      state.tokenFetches++;
      if (state.hang) return;
      if (query.get("grant_type") !== "client_credential") state.complaints.push(`grant_type=${query.get("grant_type")}`);
      if (query.get("appid") !== WECHAT_APP_ID) return send(res, { errcode: 40013, errmsg: "invalid appid" });
      if (query.get("secret") !== WECHAT_APP_SECRET) return send(res, { errcode: 40125, errmsg: "invalid appsecret" });
      if (state.tokenError) return send(res, state.tokenError);
      serial++;
      currentToken = `ACCESS_TOKEN_${serial}_${"x".repeat(100)}`;
      return send(res, { access_token: currentToken, expires_in: state.tokenExpiresIn });
    }
    if (url.pathname === "/cgi-bin/ticket/getticket") {
      state.ticketFetches++;
      if (query.get("type") !== "jsapi") state.complaints.push(`type=${query.get("type")}`);
      if (!currentToken || query.get("access_token") !== currentToken) return send(res, WECHAT_ERRORS.invalidCredential);
      if (state.ticketError) return send(res, state.ticketError);
      serial++;
      state.ticket = `bxLdikRXVbTPdHSM05e5u5sUoXNKd8-${serial}-ZO3MhKoyN5OfkWITDGgnr2fwJ0m9E8NYzWKVZvdVtaUgWvsdshFKA`;
      return send(res, { errcode: 0, errmsg: "ok", ticket: state.ticket, expires_in: state.ticketExpiresIn });
    }
    state.complaints.push(`unknown path ${url.pathname}`);
    res.writeHead(404).end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    replaceToken() {
      serial++;
      currentToken = `ACCESS_TOKEN_${serial}_replaced`;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  });
}
