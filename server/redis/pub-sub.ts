// Messages between instances over Redis pub/sub; what is sent while a subscription's connection is down is lost,
// so pair it with `SharedTier.onResume` to catch up.
import type { Redis } from "ioredis";
import type { SharedTier } from "./redis-connection.ts";

export interface PubSub {
  publish(channel: string, message: string): Promise<boolean>;
  subscribe(channel: string, onMessage: (message: string) => void): Promise<void>;
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
