/** What a rendered page says about its language: the head's canonical and hreflang links, `<html lang dir>`, its main. */

export interface Head {
  canonical: string | undefined;
  /** hreflang → href, in document order. */
  alternates: Record<string, string>;
  htmlLang: string | undefined;
  dir: string | undefined;
}

export function headOf(html: string): Head {
  const head = html.slice(0, html.indexOf("</head>"));
  const alternates: Record<string, string> = {};
  for (const [, lang, href] of head.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g))
    alternates[lang as string] = href as string;
  return {
    canonical: /<link rel="canonical" href="([^"]+)">/.exec(head)?.[1],
    alternates,
    htmlLang: /<html lang="([^"]+)"/.exec(html)?.[1],
    dir: /<html lang="[^"]+" dir="([^"]+)"/.exec(html)?.[1],
  };
}

/** The <main> of a page: what the page shows beside the shell. */
export const mainOf = (html: string) => html.slice(html.indexOf("<main"), html.indexOf("</main>"));

/** A sitemap's entries: each address → its alternates (hreflang → href). */
export function sitemapEntries(sitemap: string): Map<string, Record<string, string>> {
  return new Map(
    [...sitemap.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>[^<]*<\/lastmod>)?(.*?)<\/url>/g)].map(([, loc, links]) => [
      loc as string,
      Object.fromEntries(
        [...(links as string).matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1] as string, m[2] as string]),
      ),
    ]),
  );
}
