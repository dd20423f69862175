/** The share card WeChat shows for a page, read from the head the server wrote for it. */
export interface ShareData {
  title: string;
  desc: string;
  /** The canonical link, else the address without its fragment. */
  link: string;
  /** The Open Graph image as an absolute URL; empty when the page has none. */
  imgUrl: string;
}

export function pageAddress(): string {
  return window.location.href.split("#")[0] ?? window.location.href;
}

/** `page`: this document, or one parsed from the page's HTML (its relative addresses read against this one's). */
export function shareDataOf(page: Document): ShareData {
  const content = (selector: string) => page.head.querySelector(selector)?.getAttribute("content")?.trim() ?? "";
  const absolute = (address: string | null | undefined) => (address ? new URL(address, window.location.href).href : "");
  const canonical = page.head.querySelector('link[rel="canonical"]')?.getAttribute("href");
  return {
    title: content('meta[property="og:title"]') || page.title,
    desc: content('meta[name="description"]'),
    link: absolute(canonical) || pageAddress(),
    imgUrl: absolute(content('meta[property="og:image"]')),
  };
}
