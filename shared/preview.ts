/** Where a preview's pages read their data, and how it ends (docs/behaviour.md#preview): paths under /portal, which its cookie is sent to. */
export const PREVIEW_PATH = "/portal/_preview";
export const PREVIEW_EXIT_PATH = `${PREVIEW_PATH}/exit`;
export const PREVIEW_API_PREFIX = `${PREVIEW_PATH}/api`;

/** The exit link of a preview showing `path` (its query included): back to that page as visitors see it. */
export function previewExitLink(path: string): string {
  return `${PREVIEW_EXIT_PATH}?${new URLSearchParams({ path })}`;
}
