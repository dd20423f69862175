import { defineMessages } from "./define-messages.ts";

export const SHELL_MESSAGES = defineMessages({}, {});
