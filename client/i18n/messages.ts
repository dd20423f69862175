/**
 * The interface strings. Chinese is built in, each area's in its own module; English is one
 * module loaded only for a page in English, typed to have exactly the Chinese keys.
 */
import type { Lang } from "../../shared/page-state.ts";
import { COMMON_MESSAGES } from "./messages-common.ts";
import { SHELL_MESSAGES } from "./messages-shell.ts";
import type { Message } from "./plural.ts";

export const SHARED_MESSAGES = { ...COMMON_MESSAGES, ...SHELL_MESSAGES };

export type MessageKey = keyof typeof SHARED_MESSAGES;

export const MESSAGES_EN_FILE = "client/i18n/messages-en.ts";

let english: Record<string, Message> | undefined;
let loading: Promise<void> | undefined;

/** The server and the browser both wait for it before their first render in that language. */
export function loadMessages(lang: Lang): Promise<void> {
  if (lang !== "en" || english) return Promise.resolve();
  loading ??= import("./messages-en.ts").then(
    (module) => {
      english = module.ENGLISH;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export const englishMessages = (): Record<string, Message> | undefined => english;
