/** The share card WeChat shows for this page, read from the head the server wrote. */
export interface ShareData {
  title: string;
  desc: string;
  /** The canonical link, else the address without its fragment. */
  link: string;
  /** The Open Graph image as an absolute URL; empty when the page has none. */
  imgUrl: string;
}

const content = (selector: string) => document.head.querySelector(selector)?.getAttribute("content")?.trim() ?? "";

export function pageAddress(): string {
  return window.location.href.split("#")[0] ?? window.location.href;
}

export function shareDataOfPage(): ShareData {
  const canonical = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
  const image = content('meta[property="og:image"]');
  return {
    title: content('meta[property="og:title"]') || document.title,
    desc: content('meta[name="description"]'),
    link: canonical || pageAddress(),
    imgUrl: image ? new URL(image, window.location.href).href : "",
  };
}
