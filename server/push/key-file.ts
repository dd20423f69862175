/** `GET /{key}.txt` at the origin's root: IndexNow fetches it to check the key is this host's. */
import { type Request, type Response, Router } from "express";

export function keyFileRouter(key: string): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get(`/${key}.txt`, (_req: Request, res: Response) => {
    res.status(200).type("text/plain; charset=utf-8").set("Cache-Control", "public, max-age=3600").send(key);
  });
  return router;
}
