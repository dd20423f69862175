/**
 * A plain mailbox address, as people type their own: nothing a mail program could read as more
 * than one mailbox or show as another (docs/behaviour.md#enquiries, "Fields").
 */

/** Letters and digits of any script, and the punctuation of RFC 5322's atext but `%` and `!`, old routing forms. */
const LOCAL = /^[\p{L}\p{M}\p{N}#$&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{M}\p{N}#$&'*+/=?^_`{|}~-]+)*$/u;
const LABEL = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?$/u;
/** A top-level domain is letters (or its punycode): never digits, so no address literal passes. */
const TOP_LABEL = /^(?:[\p{L}\p{M}]{2,63}|xn--[a-z0-9-]{1,59})$/iu;

/** A character other than ASCII that NFKC folds to ASCII (`ａ`, `＠`, `ﬁ`): it looks like the address it is not. */
const hasAsciiLookAlike = (address: string) => [...address].some((char) => char > "\x7f" && /[ -~]/.test(char.normalize("NFKC")));

/**
 * One `@`; a local part without quotes, spaces, controls, `%`, `!` or an encoded word (`=?`);
 * a domain of two or more labels, no `[...]` literal, no IP address, no control or bidi character;
 * no full-width or other look-alike of an ASCII character (nodemailer would send `ａ@ｂ.cn` as `ａ@b.cn`).
 */
export function isPlainEmail(address: string): boolean {
  const at = address.indexOf("@");
  if (at < 1 || at !== address.lastIndexOf("@")) return false;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > 64 || domain.length > 253 || local.includes("=?") || !LOCAL.test(local) || hasAsciiLookAlike(address)) return false;
  const labels = domain.split(".");
  return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && TOP_LABEL.test(labels.at(-1) ?? "");
}
