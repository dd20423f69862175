/**
 * Every interface string (not content) in both languages, gathered from one module per
 * area so each part of the site keeps its own. Chinese is the reference; each area's
 * English must have the same keys (its type enforces it).
 */
import { COMMON_MESSAGES } from "./messages-common.ts";
import { HOME_MESSAGES } from "./messages-home.ts";
import { PAGES_MESSAGES } from "./messages-pages.ts";
import { SHELL_MESSAGES } from "./messages-shell.ts";

const zh = { ...COMMON_MESSAGES.zh, ...SHELL_MESSAGES.zh, ...HOME_MESSAGES.zh, ...PAGES_MESSAGES.zh };

export type MessageKey = keyof typeof zh;

const en: Record<MessageKey, string> = { ...COMMON_MESSAGES.en, ...SHELL_MESSAGES.en, ...HOME_MESSAGES.en, ...PAGES_MESSAGES.en };

export const MESSAGES: Record<"zh-CN" | "en", Record<MessageKey, string>> = { "zh-CN": zh, en };
