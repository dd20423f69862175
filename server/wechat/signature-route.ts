// `GET /api/portal/wechat/signature?url=`: the JS-SDK's config for one page, made fresh for each ask.
import { type NextFunction, type Request, type Response, Router } from "express";
import { WECHAT_SIGNATURE_PATH } from "../../shared/wechat.ts";
import { HttpError } from "../http/errors.ts";
import { jsSdkSignature, newNonce } from "./js-sdk-signature.ts";
import { pageUrlToSign } from "./page-url.ts";
import { type TicketKeeper, TicketUnavailable } from "./ticket-keeper.ts";

interface SignatureRouteDeps {
  appId: string;
  publicOrigin: string;
  keeper: TicketKeeper;
  now: () => number;
}

export function createSignatureRouter({ appId, publicOrigin, keeper, now }: SignatureRouteDeps): Router {
  const router = Router();
  router.get(WECHAT_SIGNATURE_PATH, async (req: Request, res: Response, next: NextFunction) => {
    const asked = pageUrlToSign(new URL(req.originalUrl, "http://portal.invalid").searchParams, publicOrigin);
    if ("problem" in asked) {
      next(new HttpError(400, asked.problem));
      return;
    }
    let ticket: string;
    try {
      ticket = await keeper.ticket();
    } catch (error) {
      const retryAfter = error instanceof TicketUnavailable ? Math.max(1, Math.ceil(error.retryInMs / 1000)) : 60;
      next(new HttpError(502, "WeChat's signing ticket is not available now", { "Retry-After": String(retryAfter) }));
      return;
    }
    const timestamp = Math.floor(now() / 1000);
    const nonceStr = newNonce();
    const signature = jsSdkSignature({ ticket, nonceStr, timestamp, url: asked.url });
    res.setHeader("Cache-Control", "no-store");
    res.json({ code: 0, msg: "ok", data: { appId, timestamp, nonceStr, signature } });
  });
  router.all(WECHAT_SIGNATURE_PATH, (_req, _res, next) => next(new HttpError(405, "GET a signature")));
  return router;
}
