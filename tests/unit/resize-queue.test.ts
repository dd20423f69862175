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
    const queue = new ResizeQueue({ slots: 2, maxWaiting: 1 });
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
    const queue = new ResizeQueue({ slots: 1, maxWaiting: 0 });
    await expect(queue.run(async () => Promise.reject(new Error("bad image")))).rejects.toThrow("bad image");
    expect(await queue.run(async () => "next")).toBe("next");
  });
});
