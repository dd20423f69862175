import { defineMessages } from "./define-messages.ts";

export const HOME_MESSAGES = defineMessages({}, {});
