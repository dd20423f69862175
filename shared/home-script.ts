/**
 * The home html `useEval|` script (docs/behaviour.md#home-page): the text after
 * the marker runs once in the browser, after hydration, as the body of a function whose
 * one parameter, `container`, is the content container. The browser inserts exactly
 * `homeScriptSource(body)` as a script element, and the server allows exactly that text
 * by its hash in the Content-Security-Policy.
 */
export const HOME_SCRIPT_MARKER = "useEval|";
export const HOME_CONTENT_ID = "home-content";
export const HOME_CUSTOM_ID = "home-custom";

/** The script body of a home html value, or undefined when it is markup or not a string at all. */
export function homeScriptBody(html: unknown): string | undefined {
  return typeof html === "string" && html.startsWith(HOME_SCRIPT_MARKER) ? html.slice(HOME_SCRIPT_MARKER.length) : undefined;
}

export function homeScriptSource(body: string): string {
  return `(function (container) {\n${body}\n})(document.getElementById(${JSON.stringify(HOME_CONTENT_ID)}));`;
}
