/**
 * HTML from the API (details, the company introduction, job texts). The server
 * sanitises it with an allowlist before anything sees it (CONTRACT section 8), so it
 * is inserted as it is.
 */
export function RichHtml({ html, className }: { html: string | undefined; className?: string }) {
  if (!html) return null;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server with an allowlist before it reaches the page
  return <div className={className ? `rich-html ${className}` : "rich-html"} dangerouslySetInnerHTML={{ __html: html }} />;
}
