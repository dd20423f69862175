// The missing-pages log of a cluster (WEB_CONCURRENCY): the primary's /not-found asks every worker for its list.
// Workers sharing Redis all answer the same list, so one is taken; otherwise their own counts are added together.
import type { Worker } from "node:cluster";
import { MISSING_PAGES_CAPACITY, MISSING_PAGES_LISTED, type MissingPage, type MissingPagesLog } from "./missing-pages.ts";

const ASK = "portal:missing-pages?";
const ANSWER = "portal:missing-pages";
/** A worker that has not answered by then (busy, or being replaced) is left out of this answer. */
const ANSWER_WITHIN_MS = 2000;

interface Answer {
  type: typeof ANSWER;
  id: number;
  pages: MissingPage[];
  shared: boolean;
}

const isAsk = (message: unknown): message is { type: typeof ASK; id: number } =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === ASK;

/** In a worker: answers the primary's asks with this worker's list (the shared one when Redis answers). */
export function answerPrimary(log: Pick<MissingPagesLog, "list">): void {
  process.on("message", (message: unknown) => {
    if (!isAsk(message)) return;
    void log.list(MISSING_PAGES_CAPACITY).then(
      ({ pages, shared }) => process.send?.({ type: ANSWER, id: message.id, pages, shared } satisfies Answer),
      () => process.send?.({ type: ANSWER, id: message.id, pages: [], shared: false } satisfies Answer),
    );
  });
}

/** Several workers' own lists as one: counts added, the earliest first sighting, the latest last one and its referrer. */
export function mergeWorkerLists(lists: readonly MissingPage[][]): MissingPage[] {
  const merged = new Map<string, MissingPage>();
  for (const page of lists.flat()) {
    const seen = merged.get(page.path);
    if (!seen) {
      merged.set(page.path, { ...page });
      continue;
    }
    const later = page.lastSeen >= seen.lastSeen;
    seen.count += page.count;
    if (page.firstSeen < seen.firstSeen) seen.firstSeen = page.firstSeen;
    if (later) seen.lastSeen = page.lastSeen;
    seen.referrer = later ? (page.referrer ?? seen.referrer) : (seen.referrer ?? page.referrer);
  }
  return [...merged.values()]
    .sort((a, b) => b.count - a.count || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, MISSING_PAGES_LISTED);
}

/** In the primary: `receive` takes the workers' answers (true when the message was one); `ask` gathers a list. */
export function createWorkerAsker() {
  let nextId = 0;
  const waiting = new Map<number, (answer: Answer) => void>();
  return {
    receive(message: unknown): boolean {
      if (typeof message !== "object" || message === null || (message as { type?: unknown }).type !== ANSWER) return false;
      const answer = message as Answer;
      waiting.get(answer.id)?.(answer);
      return true;
    },
    async ask(workers: readonly Worker[]): Promise<MissingPage[]> {
      const id = nextId++;
      const connected = workers.filter((worker) => worker.isConnected());
      const answers: Answer[] = [];
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ANSWER_WITHIN_MS);
        waiting.set(id, (answer) => {
          answers.push(answer);
          if (answers.length < connected.length) return;
          clearTimeout(timer);
          resolve();
        });
        if (connected.length === 0) resolve();
        for (const worker of connected) worker.send({ type: ASK, id });
      });
      waiting.delete(id);
      const shared = answers.find((answer) => answer.shared);
      return shared ? shared.pages.slice(0, MISSING_PAGES_LISTED) : mergeWorkerLists(answers.map((answer) => answer.pages));
    },
  };
}
