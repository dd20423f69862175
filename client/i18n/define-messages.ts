/** One area's strings: the English must have exactly the Chinese keys. */
export function defineMessages<const K extends string>(zh: Record<K, string>, en: Record<K, string>): AreaMessages<K> {
  return { zh, en };
}

export interface AreaMessages<K extends string> {
  zh: Record<K, string>;
  en: Record<K, string>;
}
