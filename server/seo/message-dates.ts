/**
 * A message's dateTime, China time as the upstream writes it (docs/behaviour.md#dates), for RSS
 * and sitemaps; undefined for a date that does not exist, so neither carries an invalid one.
 */
import { toIsoDate } from "../../shared/dates.ts";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function dateTimeParts(value: string | null | undefined): DateParts | undefined {
  if (typeof value !== "string" || !/^(\d{8}|\d{14})$/.test(value)) return undefined;
  const n = (from: number, to: number) => (value.length >= to ? Number(value.slice(from, to)) : 0);
  const parts = { year: n(0, 4), month: n(4, 6), day: n(6, 8), hour: n(8, 10), minute: n(10, 12), second: n(12, 14) };
  // Date.UTC rolls 31 February over into March: a round trip catches every impossible date.
  const date = new Date(Date.UTC(parts.year, parts.month - 1, parts.day));
  const real = date.getUTCFullYear() === parts.year && date.getUTCMonth() === parts.month - 1 && date.getUTCDate() === parts.day;
  if (!real || parts.year < 1000 || parts.hour > 23 || parts.minute > 59 || parts.second > 59) return undefined;
  return parts;
}

const two = (n: number) => String(n).padStart(2, "0");

/** `Tue, 10 Nov 2026 09:10:40 +0800` */
export function rfc822Of(value: string | null | undefined): string | undefined {
  const p = dateTimeParts(value);
  if (!p) return undefined;
  const weekday = DAYS[new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay()];
  return `${weekday}, ${two(p.day)} ${MONTHS[p.month - 1]} ${p.year} ${two(p.hour)}:${two(p.minute)}:${two(p.second)} +0800`;
}

/** `2026-11-10T09:10:40+08:00`, or `2026-11-10` for a date. */
export function w3cDateOf(value: string | null | undefined): string | undefined {
  return dateTimeParts(value) ? toIsoDate(value) : undefined;
}
