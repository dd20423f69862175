import { describe, expect, it } from "vitest";
import { HttpError } from "../../server/http/errors.ts";
import { ResizeQueue } from "../../server/images/resize-queue.ts";

/** A task that runs until `finish` is called, noting when it started. */
function heldTask(started: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    run: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

describe("the resize queue", () => {
  it("runs at most `slots` at once, lets `maxWaiting` wait, and refuses the next with 503 and Retry-After", async () => {
    const queue = new ResizeQueue({ slots: 2, maxWaiting: 1, maxWaitingPerClient: 10 });
    const started: string[] = [];
    const tasks = ["a", "b", "c"].map((name) => heldTask(started, name));
    const results = tasks.map((task) => queue.run(task.run));
    await Promise.resolve();
    expect(started).toEqual(["a", "b"]);

    const refused = await queue.run(async () => "d").catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 503, headers: { "Retry-After": "1" } });

    tasks[0]?.finish();
    await results[0];
    expect(started).toEqual(["a", "b", "c"]);
    for (const task of tasks) task.finish();
    expect(await Promise.all(results)).toEqual(["a", "b", "c"]);
    // Every slot is free again.
    expect(await Promise.all([queue.run(async () => 1), queue.run(async () => 2), queue.run(async () => 3)])).toEqual([1, 2, 3]);
    expect(queue.started).toBe(6);
  });

  it("frees the slot of a task that fails", async () => {
    const queue = new ResizeQueue({ slots: 1, maxWaiting: 0, maxWaitingPerClient: 0 });
    await expect(queue.run(async () => Promise.reject(new Error("bad image")))).rejects.toThrow("bad image");
    expect(await queue.run(async () => "next")).toBe("next");
  });

  it("refuses a client past its own share with 429, while another client still waits its turn", async () => {
    const queue = new ResizeQueue({ slots: 1, maxWaiting: 100, maxWaitingPerClient: 2 });
    const started: string[] = [];
    const running = heldTask(started, "first");
    const first = queue.run(running.run, { client: "flood" });
    const waiting = ["f1", "f2"].map((name) => queue.run(async () => name, { client: "flood" }));
    const refused = await queue.run(async () => "f3", { client: "flood" }).catch((err: unknown) => err);
    expect(refused).toMatchObject({ status: 429, headers: { "Retry-After": "1" } });
    const visitor = queue.run(async () => "v1", { client: "visitor" });
    running.finish();
    expect(await Promise.all([first, ...waiting, visitor])).toEqual(["first", "f1", "f2", "v1"]);
  });

  it("serves the clients waiting in turn: one client's long line delays another's by a resize per turn", async () => {
    const queue = new ResizeQueue({ slots: 1, maxWaiting: 100, maxWaitingPerClient: 100 });
    const order: string[] = [];
    const running = heldTask([], "first");
    const first = queue.run(running.run, { client: "flood" });
    const asked = [
      ...["f1", "f2", "f3", "f4"].map((name) => ({ name, client: "flood" })),
      ...["v1", "v2"].map((name) => ({ name, client: "visitor" })),
    ];
    const all = asked.map(({ name, client }) => queue.run(async () => void order.push(name), { client }));
    running.finish();
    await Promise.all([first, ...all]);
    expect(order).toEqual(["f1", "v1", "f2", "v2", "f3", "f4"]);
  });

  it("refuses anyone with 503 when the sources waiting pass their bound in bytes", async () => {
    const queue = new ResizeQueue({ slots: 1, maxWaiting: 100, maxWaitingPerClient: 100, maxWaitingBytes: 1000 });
    const running = heldTask([], "first");
    const first = queue.run(running.run, { client: "a" });
    const waiting = queue.run(async () => "big", { client: "a", bytes: 900 });
    await expect(queue.run(async () => "more", { client: "b", bytes: 200 })).rejects.toMatchObject({ status: 503 });
    running.finish();
    expect(await Promise.all([first, waiting])).toEqual(["first", "big"]);
    expect(queue.busy).toBe(0);
  });
});
