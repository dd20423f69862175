/** How a part of the page changes the interface language: App's state, set by the language switch. */
import { createContext } from "react";
import type { Lang } from "../../shared/page-state.ts";

export const SetLangContext = createContext<(lang: Lang) => void>(() => {});
