/**
 * The interface strings (not content) every page shows, in both languages: the shared
 * words and the shell's. An area used by only some pages keeps its strings in its own
 * module (messages-home.ts, messages-pages.ts), which its components hand to `useT`, so
 * those strings travel with that area's code rather than with every page's. Chinese is
 * the reference; each area's English must have the same keys (its type enforces it).
 */
import { COMMON_MESSAGES } from "./messages-common.ts";
import { SHELL_MESSAGES } from "./messages-shell.ts";

const zh = { ...COMMON_MESSAGES.zh, ...SHELL_MESSAGES.zh };

export type MessageKey = keyof typeof zh;

const en: Record<MessageKey, string> = { ...COMMON_MESSAGES.en, ...SHELL_MESSAGES.en };

export const MESSAGES: Record<"zh-CN" | "en", Record<MessageKey, string>> = { "zh-CN": zh, en };
