/**
 * The interface strings (not content). Chinese is the reference language and is built
 * in: the strings every page shows here, and each area's own (messages-home.ts,
 * messages-pages.ts) in its module, which its components hand to `useT`, so those load
 * with that area's code. English, for every area, is one module (messages-en.ts) loaded
 * only when a page is shown in English; its type makes it have exactly the Chinese keys.
 */
import type { Lang } from "../../shared/page-state.ts";
import { COMMON_MESSAGES } from "./messages-common.ts";
import { SHELL_MESSAGES } from "./messages-shell.ts";
import type { Message } from "./plural.ts";

export const SHARED_MESSAGES = { ...COMMON_MESSAGES, ...SHELL_MESSAGES };

export type MessageKey = keyof typeof SHARED_MESSAGES;

/** The English strings' module as the build names it (its path from the project folder). */
export const MESSAGES_EN_FILE = "client/i18n/messages-en.ts";

let english: Record<string, Message> | undefined;
let loading: Promise<void> | undefined;

/**
 * Makes a language's strings available before rendering in it: at once for Chinese;
 * English is fetched once. The server and the browser both wait for it before their
 * first render, and the language switch before switching.
 */
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

/** The English strings, once loaded. */
export const englishMessages = (): Record<string, Message> | undefined => english;
