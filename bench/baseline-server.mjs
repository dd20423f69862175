/**
 * The bench's baseline (a): a bare node:http server answering every request with the
 * exact bytes and content headers the home page was served with. Plain JavaScript so
 * plain `node` runs it, with no loader in the process.
 *
 * Usage: node bench/baseline-server.mjs BODY_FILE CONTENT_TYPE [CONTENT_ENCODING]
 */
import { readFileSync } from "node:fs";
import http from "node:http";

const [file, type, encoding] = process.argv.slice(2);
if (!file || !type) {
  process.stderr.write("usage: node bench/baseline-server.mjs BODY_FILE CONTENT_TYPE [CONTENT_ENCODING]\n");
  process.exit(2);
}
const body = readFileSync(file);
const headers = { "Content-Type": type, "Content-Length": String(body.length) };
if (encoding) headers["Content-Encoding"] = encoding;

const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ msg: "listening", port: server.address().port, pid: process.pid })}\n`);
});
process.on("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
