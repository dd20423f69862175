/** HTML from the API, sanitised by the server (docs/behaviour.md#sanitising); only a string is ever inserted. */
export function RichHtml({ html, className, lang }: { html: unknown; className?: string; lang?: string }) {
  if (typeof html !== "string" || !html) return null;
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server with an allowlist before it reaches the page
    <div className={className ? `rich-html ${className}` : "rich-html"} lang={lang} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
