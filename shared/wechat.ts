/** Where this site serves WeChat's JS-SDK and the signature for it (docs/behaviour.md#sharing-in-wechat). */
export const WECHAT_SDK_PATH = "/portal/wechat/jweixin-1.6.0.js";
export const WECHAT_SIGNATURE_PATH = "/api/portal/wechat/signature";

/** What the signature call answers in its envelope's data. */
export interface WechatSignature {
  appId: string;
  timestamp: number;
  nonceStr: string;
  signature: string;
}
