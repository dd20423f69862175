// Memoises a pure function of a request URL for a hot path, bounded in count and URL length so endless
// distinct URLs cost a fixed amount of memory (docs/behaviour.md#hot-path).
const MAX_URLS = 2000;
const MAX_URL_LENGTH = 512;

export function memoByUrl<T>(compute: (url: string) => T): (url: string) => T {
  const memo = new Map<string, T>();
  return (url) => {
    if (memo.has(url)) return memo.get(url) as T;
    const value = compute(url);
    if (url.length <= MAX_URL_LENGTH) {
      if (memo.size >= MAX_URLS) memo.delete(memo.keys().next().value as string);
      memo.set(url, value);
    }
    return value;
  };
}
