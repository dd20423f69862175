import { defineMessages } from "./define-messages.ts";

export const PAGES_MESSAGES = defineMessages({}, {});
