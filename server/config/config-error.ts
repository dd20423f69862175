/** The one error a bad environment gives: one line naming the variable, its value shown only when it holds no secret. */

export class ConfigError extends Error {}

/** For a variable that means nothing without another. */
export function needs(name: string, other: string): never {
  throw new ConfigError(`${name} needs ${other} as well`);
}

/** Variables whose values are never shown, whatever they hold. */
const SECRET_NAME = /SECRET|PASSWORD|TOKEN|KEY/i;

/** Kept of a URL whose userinfo is hidden: punctuation, then a scheme with its slashes (`redis://`, `redis:/`, `postgres//`). */
const SHOWN_SCHEME = /^[^A-Za-z0-9]*(?:[A-Za-z][A-Za-z0-9+.-]*(?::\/+|\/\/+))?/;

/** `***` for all before the last `@` but the scheme: a password may hold `/`, `#`, `?` or `@`, a scheme be mistyped. */
function withoutUserinfo(text: string): string {
  const at = text.lastIndexOf("@");
  if (at === -1) return text;
  return `${SHOWN_SCHEME.exec(text)?.[0] ?? ""}***${text.slice(at)}`;
}

/** Every word holding an `@` cut to its scheme and what follows its last `@` (a driver's error, say). */
export function withoutCredentials(text: string): string {
  return text.replace(/\S*@\S*/g, withoutUserinfo);
}

export function shownValue(name: string, value: string | undefined): string {
  if (value === undefined) return "";
  if (SECRET_NAME.test(name)) return " (value not shown)";
  // The whole value as one: a password may hold a space.
  const safe = withoutUserinfo(value);
  return ` (got "${safe.length > 60 ? `${safe.slice(0, 60)}…` : safe}")`;
}
