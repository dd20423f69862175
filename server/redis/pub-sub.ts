/**
 * Messages between instances over Redis pub/sub: a publish has a call's deadline and reports false when
 * not sent; subscriptions have a connection of their own, made again after each reconnection (messages
 * meanwhile are lost: pair one with `SharedTier.onResume` to catch up).
 */
import type { Redis } from "ioredis";
import type { SharedTier } from "./redis-connection.ts";

export interface PubSub {
  /** True when Redis took the message. */
  publish(channel: string, message: string): Promise<boolean>;
  /** Resolves once Redis has the subscription (it waits for a connection while Redis is away). */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<void>;
  /** `listener` runs each time the subscriptions are made again after their connection was lost (messages meanwhile were missed). */
  onResubscribed(listener: () => void): void;
}

export function createPubSub(tier: SharedTier): PubSub {
  let subscriber: Redis | undefined;
  const handlers = new Map<string, ((message: string) => void)[]>();
  const resubscribed: (() => void)[] = [];
  return {
    onResubscribed: (listener) => resubscribed.push(listener),
    publish: (channel, message) => tier.run((redis) => redis.publish(tier.key("channel", channel), message).then(() => true), false),
    async subscribe(channel, onMessage) {
      const name = tier.key("channel", channel);
      if (!subscriber) {
        subscriber = tier.openSubscriber();
        subscriber.on("message", (from: string, message: string) => {
          for (const handler of handlers.get(from) ?? []) handler(message);
        });
        let connections = 0;
        // ioredis subscribes again on each reconnection, before it says it is ready.
        subscriber.on("ready", () => {
          if (++connections > 1) for (const listener of resubscribed) listener();
        });
      }
      const list = handlers.get(name);
      if (list) {
        list.push(onMessage);
        return;
      }
      handlers.set(name, [onMessage]);
      await subscriber.subscribe(name);
    },
  };
}
