/**
 * The bench's baselines: a bare node:http server answering every request with the exact
 * bytes of the home page and the headers it is given: (a) only the content headers,
 * (a2) every header the page cache sends. Plain JavaScript so plain `node` runs it, with
 * no loader in the process.
 *
 * Usage: node bench/baseline-server.mjs BODY_FILE HEADERS_FILE
 * (HEADERS_FILE: JSON, [[name, value], ...]; Content-Length is added.)
 */
import { readFileSync } from "node:fs";
import http from "node:http";

const [file, headersFile] = process.argv.slice(2);
if (!file || !headersFile) {
  process.stderr.write("usage: node bench/baseline-server.mjs BODY_FILE HEADERS_FILE\n");
  process.exit(2);
}
const body = readFileSync(file);
const headers = [...JSON.parse(readFileSync(headersFile, "utf8")).flat(), "Content-Length", String(body.length)];

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
