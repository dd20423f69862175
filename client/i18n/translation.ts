/** What a language's strings must hold: exactly the keys of the Chinese built in, each area's module and all. */
import type { COMMON_MESSAGES } from "./messages-common.ts";
import type { FOOTER_MESSAGES } from "./messages-footer.ts";
import type { HEADER_MESSAGES } from "./messages-header.ts";
import type { HOME_MESSAGES } from "./messages-home.ts";
import type { PAGES_MESSAGES } from "./messages-pages.ts";
import type { SEARCH_MESSAGES } from "./messages-search.ts";
import type { SHELL_MESSAGES } from "./messages-shell.ts";
import type { Message } from "./plural.ts";

type Key =
  | keyof typeof COMMON_MESSAGES
  | keyof typeof SHELL_MESSAGES
  | keyof typeof FOOTER_MESSAGES
  | keyof typeof HEADER_MESSAGES
  | keyof typeof HOME_MESSAGES
  | keyof typeof PAGES_MESSAGES
  | keyof typeof SEARCH_MESSAGES;

export type Translation = Record<Key, Message>;
