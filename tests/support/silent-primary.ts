/**
 * A cluster whose primary never answers its worker's limit asks (as if it were stuck): the
 * worker asks a limit of 2 three times and sends back what it was told, which the primary
 * prints as one JSON line. The worker's own log lines go to stdout as well.
 */
import cluster from "node:cluster";
import { instanceLimit } from "../../server/admission/cluster-limit.ts";
import { createLogger } from "../../server/logger.ts";

if (cluster.isPrimary) {
  const worker = cluster.fork();
  worker.on("message", (message: { type?: string }) => {
    if (message.type !== "answers") return;
    process.stdout.write(`${JSON.stringify(message)}\n`);
    worker.kill();
  });
} else {
  const limit = instanceLimit({ name: "enquiry", points: 2, durationS: 3600 }, createLogger("info"));
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await limit("client-hash"));
  process.send?.({ type: "answers", answers });
}
