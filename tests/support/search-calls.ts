/** Calls on the site search as a visitor makes them, for the tests of the built site's search. */

export const api = (q: string, more = "") => `/api/portal/search?q=${encodeURIComponent(q)}${more}`;
export const page = (q: string, more = "") => `/portal/search.html?q=${encodeURIComponent(q)}${more}`;

export async function get(site: { origin: string }, target: string, headers: Record<string, string> = {}) {
  const res = await fetch(site.origin + target, { headers, redirect: "manual" });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Polls until `check` holds: the index is built in the background. */
export async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never: ${what}`);
}

export const hitsOf = (text: string) =>
  JSON.parse(text).data.pageDataList as { type: string; id: number; title: string; snippet: string; url: string; dateTime?: string }[];
