/**
 * Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON
 * messages separated by NUL bytes on file descriptors 3 and 4), with no client library in
 * between. Playwright enables the Runtime domain on every page it opens, and with it V8
 * records a detailed stack trace (with source positions, which means parsing the functions
 * on the stack again) for every Error created: React DOM creates five at load, from inside
 * the bundle's largest functions, which costs a page 200-400 ms of main thread at 4x that
 * no visitor's browser spends. A page opened here gets only the domains the caller sends.
 */
import type { Readable, Writable } from "node:stream";
import { spawnChromium } from "../harness/chromium.ts";

type Params = Record<string, unknown>;
interface Message {
  id?: number;
  method?: string;
  params?: Params;
  sessionId?: string;
  result?: Params;
  error?: { message: string };
}

export interface CdpBrowser {
  /** Sends a command to the browser, or to an attached target's session; answers its result. */
  send<T = Params>(method: string, params?: Params, sessionId?: string): Promise<T>;
  /** Resolves with the params of the session's next `method` event. */
  next(method: string, sessionId: string): Promise<Params>;
  close(): Promise<void>;
}

export async function launchCdpChromium(): Promise<CdpBrowser> {
  const chromium = await spawnChromium(["--remote-debugging-pipe"], ["ignore", "ignore", "ignore", "pipe", "pipe"]);
  const { child } = chromium;
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  const pending = new Map<number, { resolve: (result: Params) => void; reject: (error: Error) => void }>();
  const listeners = new Set<(message: Message) => void>();
  let lastId = 0;
  let buffered = "";
  let gone: Error | undefined;

  fromBrowser.on("data", (chunk: Buffer) => {
    const parts = (buffered + chunk.toString("utf8")).split("\0");
    buffered = parts.pop() ?? "";
    for (const part of parts) {
      const message = JSON.parse(part) as Message;
      if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error.message));
        else waiter?.resolve(message.result ?? {});
      } else for (const listener of listeners) listener(message);
    }
  });
  child.once("exit", (code) => {
    gone = new Error(`Chromium exited (${code})`);
    for (const waiter of pending.values()) waiter.reject(gone);
    pending.clear();
  });

  return {
    send<T>(method: string, params: Params = {}, sessionId?: string): Promise<T> {
      if (gone) return Promise.reject(gone);
      const id = ++lastId;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (result: Params) => void, reject });
        toBrowser.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
      });
    },
    next(method, sessionId) {
      return new Promise((resolve) => {
        const listener = (message: Message) => {
          if (message.method !== method || message.sessionId !== sessionId) return;
          listeners.delete(listener);
          resolve(message.params ?? {});
        };
        listeners.add(listener);
      });
    },
    close: chromium.close,
  };
}
