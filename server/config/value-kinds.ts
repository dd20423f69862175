/** The kinds of value the variables hold, each with the one-line message a bad value gets. */

import { z } from "zod";

export const integer = (min: number, max: number, what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be ${what}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be ${what}`).max(max, `must be ${what}`));

export const ms = (max = 86_400_000) => integer(0, max, `a whole number of milliseconds from 0 to ${max}`);

export const onOff = () => z.enum(["on", "off"], "must be on or off");

export const hostName = () => z.string().trim().min(1, "must be a host name or address");

export const filePath = () => z.string().trim().min(1, "must be a file path");

export const queryParamName = () =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, "must be a query parameter name of letters, digits, _ . - (at most 64)");

/** No part is quoted from a value that may hold a URL's userinfo: a password may hold a comma. */
export const badPart = (raw: string, part: string) => (raw.includes("@") ? "" : ` (bad part "${part.trim()}")`);

export const origin = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    try {
      const url = new URL(raw);
      if (
        (url.protocol === "http:" || url.protocol === "https:") &&
        (url.pathname === "/" || url.pathname === "") &&
        !url.search &&
        !url.hash &&
        !url.username
      ) {
        return url.origin;
      }
    } catch {}
    ctx.addIssue({ code: "custom", message: "must be an absolute http(s) origin such as https://www.example.com" });
    return z.NEVER;
  });

/** A path is kept as a prefix for every upstream call. */
export const baseUrl = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    try {
      const url = new URL(raw);
      if ((url.protocol === "http:" || url.protocol === "https:") && !url.search && !url.hash && !url.username) {
        return url.origin + url.pathname.replace(/\/+$/, "");
      }
    } catch {}
    ctx.addIssue({ code: "custom", message: "must be an absolute http(s) URL such as https://cms.example.com" });
    return z.NEVER;
  });

export const postUrl = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    try {
      const url = new URL(raw);
      if ((url.protocol === "http:" || url.protocol === "https:") && !url.hash) return url.href;
    } catch {}
    ctx.addIssue({ code: "custom", message: "must be an absolute http(s) URL such as https://hooks.example.com/enquiries" });
    return z.NEVER;
  });
