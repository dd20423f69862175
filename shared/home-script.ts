/** The home html `useEval|` script; the server allows exactly its text by hash in the CSP (docs/behaviour.md#home-page). */
export const HOME_SCRIPT_MARKER = "useEval|";
export const HOME_CONTENT_ID = "home-content";
export const HOME_CUSTOM_ID = "home-custom";

export function homeScriptBody(html: unknown): string | undefined {
  return typeof html === "string" && html.startsWith(HOME_SCRIPT_MARKER) ? html.slice(HOME_SCRIPT_MARKER.length) : undefined;
}

export function homeScriptSource(body: string): string {
  return `(function (container) {\n${body}\n})(document.getElementById(${JSON.stringify(HOME_CONTENT_ID)}));`;
}
