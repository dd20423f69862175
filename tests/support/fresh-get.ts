/** A GET on a connection of its own (no agent): a cluster hands it to the next worker, and a drain's closed keep-alive connections never decide the outcome. */
import http, { type IncomingHttpHeaders } from "node:http";

export interface FreshAnswer {
  status: number;
  text: string;
  headers: IncomingHttpHeaders;
}

export function freshGet(url: string): Promise<FreshAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      })
      .on("error", reject);
  });
}
