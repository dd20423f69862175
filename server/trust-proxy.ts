/**
 * TRUST_PROXY's list of proxies checked as Express will read it (server/config/listening.ts): compiled
 * the same way, each address a plain IPv4 or IPv6 one, and not trusting every address.
 */
import { isIP, isIPv4 } from "node:net";
import express from "express";

/** The names Express's proxy-addr knows, as the subnets it reads them as. */
const NAMED: Record<string, string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

interface Range {
  bits: 32 | 128;
  start: bigint;
  end: bigint;
}

function ipv4Bits(text: string): bigint {
  return text.split(".").reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function ipv6Bits(text: string): bigint {
  const plain = text.split("%")[0] as string;
  const [head = "", tail] = plain.split("::");
  const groupsOf = (part: string) =>
    part === ""
      ? []
      : part.split(":").flatMap((group) => {
          if (!group.includes(".")) return [Number.parseInt(group, 16)];
          const v4 = Number(ipv4Bits(group));
          return [v4 >>> 16, v4 & 0xffff];
        });
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  const groups = [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.reduce((n, group) => (n << 16n) | BigInt(group), 0n);
}

const MAPPED_PREFIX = 0xffffn << 32n;

/** The range an entry names (`address`, `address/bits` or `ipv4/netmask`); undefined when its address is not a plain one. */
function rangeOf(entry: string): Range | undefined {
  const slash = entry.lastIndexOf("/");
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return undefined;
  const bits = family === 4 ? 32 : 128;
  const value = family === 4 ? ipv4Bits(address) : ipv6Bits(address);
  const suffix = slash === -1 ? String(bits) : entry.slice(slash + 1);
  let prefix: number;
  if (/^\d+$/.test(suffix)) prefix = Number(suffix);
  else if (family === 4 && isIPv4(suffix)) prefix = ipv4Bits(suffix).toString(2).replace(/0+$/, "").length;
  else return undefined;
  const size = 1n << BigInt(bits - prefix);
  const start = value - (value % size);
  // An IPv4-mapped subnet judges IPv4 clients (proxy-addr maps them across), and a plain mapped address is an IPv4 one.
  if (bits === 128 && prefix >= 96 && value >> 32n === 0xffffn) {
    return { bits: 32, start: start - MAPPED_PREFIX, end: start - MAPPED_PREFIX + size - 1n };
  }
  return { bits, start, end: start + size - 1n };
}

/** True when the ranges of one family, together, hold every address of it. */
function coversAll(ranges: Range[], bits: 32 | 128): boolean {
  const sorted = ranges.filter((r) => r.bits === bits).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  let next = 0n;
  for (const range of sorted) {
    if (range.start > next) return false;
    if (range.end + 1n > next) next = range.end + 1n;
  }
  return next >= 1n << BigInt(bits);
}

type TrustedProxiesProblem = { unreadable: string } | { everyone: "IPv4" | "IPv6" } | undefined;

/**
 * What is wrong with a list of trusted proxies (names, addresses, subnets joined by commas),
 * or undefined. Refused: what Express would throw on when the app sets it; addresses in
 * any form but the plain ones (proxy-addr also reads `0/1`); and lists whose subnets together
 * hold every IPv4 or every IPv6 address, as `true` does: then any client names its own
 * address in X-Forwarded-For.
 */
export function trustedProxiesProblem(raw: string): TrustedProxiesProblem {
  try {
    express().set("trust proxy", raw);
  } catch (err) {
    return { unreadable: err instanceof Error ? err.message : String(err) };
  }
  const ranges: Range[] = [];
  for (const entry of raw.split(",").map((part) => part.trim())) {
    for (const subnet of NAMED[entry] ?? [entry]) {
      const range = rangeOf(subnet);
      if (!range) return { unreadable: `not a plain IPv4 or IPv6 address: ${entry}` };
      ranges.push(range);
    }
  }
  // IPv4-mapped IPv6 clients are judged as IPv4 ones: that block never needs covering.
  ranges.push({ bits: 128, start: MAPPED_PREFIX, end: MAPPED_PREFIX + 0xffffffffn });
  if (coversAll(ranges, 32)) return { everyone: "IPv4" };
  if (coversAll(ranges, 128)) return { everyone: "IPv6" };
  return undefined;
}
