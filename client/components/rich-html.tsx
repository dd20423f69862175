/**
 * HTML from the API (details, the company introduction, job texts). The server
 * sanitises it with an allowlist before anything sees it (docs/behaviour.md#sanitising), and
 * leaves an HTML field a string or absent; only a string is inserted, so a value of any
 * other type can never reach the page as markup.
 */
export function RichHtml({ html, className, lang }: { html: unknown; className?: string; lang?: string }) {
  if (typeof html !== "string" || !html) return null;
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server with an allowlist before it reaches the page
    <div className={className ? `rich-html ${className}` : "rich-html"} lang={lang} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
