/** `GET /{key}.txt` at the origin's root: IndexNow fetches it to check the key is this host's. */
import { type Request, type Response, Router } from "express";

/** Where the key file is served: the redirect rules leave it alone. */
export const keyFilePath = (key: string) => `/${key}.txt`;

export function keyFileRouter(key: string): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get(keyFilePath(key), (_req: Request, res: Response) => {
    res.status(200).type("text/plain; charset=utf-8").set("Cache-Control", "public, max-age=3600").send(key);
  });
  return router;
}
