/**
 * Keys that collide under the 32-bit FNV-1a the admission sketch once hashed with, unkeyed:
 * an attacker's way to make ids that share a popular key's counters.
 */

const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a of a string's UTF-16 code units, from `state` (the offset basis by default). */
export function fnv1a(text: string, state = 0x811c9dc5): number {
  let hash = state;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash >>> 0;
}

/** The prime's inverse mod 2^32, by Newton's iteration. */
let inverse = FNV_PRIME;
for (let i = 0; i < 5; i++) inverse = Math.imul(inverse, 2 - Math.imul(FNV_PRIME, inverse));

/**
 * `prefix` plus two code units whose FNV-1a equals `target`, or undefined: the last code
 * unit is fixed by the one before it, and one of 65,536 such pairs fits about two times in three.
 */
function completion(prefix: string, target: number): string | undefined {
  const state = fnv1a(prefix);
  const beforeLast = Math.imul(target, inverse) >>> 0;
  for (let first = 0; first < 0x10000; first++) {
    const last = (Math.imul(state ^ first, FNV_PRIME) ^ beforeLast) >>> 0;
    if (last < 0x10000) return prefix + String.fromCharCode(first, last);
  }
  return undefined;
}

/** `count` keys starting `prefix` with the same FNV-1a as `key`, found by brute force (a bounded number of tries). */
export function fnvCollisions(key: string, prefix: string, count: number): string[] {
  const found: string[] = [];
  for (let attempt = 0; found.length < count && attempt < count * 10; attempt++) {
    const made = completion(`${prefix}${attempt}-`, fnv1a(key));
    if (made !== undefined && made !== key) found.push(made);
  }
  if (found.length < count) throw new Error(`found only ${found.length} keys colliding with ${key}`);
  return found;
}
