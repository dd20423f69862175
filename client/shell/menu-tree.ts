/** The upstream's menu items as the tree the shell renders (docs/behaviour.md#the-shell). */
import type { MenuItem } from "../../shared/entities.ts";
import { BASE_PATH, HOME_PATH } from "../../shared/routes.ts";

const HOME_ANCHORS = ["product-list", "service-list", "message-list"] as const;
type HomeAnchor = (typeof HOME_ANCHORS)[number];

const CONTENT_ANCHORS: Record<string, HomeAnchor> = {
  product: "product-list",
  service: "service-list",
  news: "message-list",
  notice: "message-list",
};

export type MenuTarget =
  | { kind: "none" }
  | { kind: "page"; to: string }
  | { kind: "anchor"; anchor: string }
  | { kind: "external"; href: string };

export interface MenuNode {
  id: number;
  title: string;
  target: MenuTarget;
  children: MenuNode[];
  groups?: ClassifyGroup[];
}

interface ClassifyGroup {
  type: number;
  entries: { id: number; name: string; to: string }[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const isId = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0;

function resolveMenuTarget(url: unknown, urlType: unknown): MenuTarget {
  const raw = typeof url === "string" ? url.trim() : "";
  if (Number(urlType) === 2) {
    // Only web and mail links leave the site; anything else (javascript:, data:) is not a link.
    return /^(https?:\/\/|mailto:|tel:)/i.test(raw) ? { kind: "external", href: raw } : { kind: "none" };
  }
  if (Number(urlType) !== 1 || !raw) return { kind: "none" };
  const anchor = CONTENT_ANCHORS[raw.toLowerCase()];
  if (anchor) return { kind: "anchor", anchor };
  if (/^#[\w-]+$/.test(raw)) return { kind: "anchor", anchor: raw.slice(1) };
  if (raw.startsWith("/") && !raw.startsWith("//")) {
    const to = raw === BASE_PATH || raw.startsWith(`${BASE_PATH}/`) ? raw.slice(BASE_PATH.length) || HOME_PATH : raw;
    return { kind: "page", to };
  }
  return { kind: "none" };
}

/** Items whose parent is missing or deleted are dropped with it. */
export function buildMenuTree(items: unknown): MenuNode[] {
  const live = (Array.isArray(items) ? items : []).filter((item): item is MenuItem => isRecord(item) && isId(item.id) && !item.delflag);
  const byParent = new Map<number, MenuItem[]>();
  for (const item of live) {
    const pid = Number(item.pid) || 0;
    const siblings = byParent.get(pid);
    if (siblings) siblings.push(item);
    else byParent.set(pid, [item]);
  }
  // Each id is placed once, so duplicate ids or a pid cycle cannot repeat or loop.
  const seen = new Set<number>();
  const nodesOf = (pid: number): MenuNode[] =>
    (byParent.get(pid) ?? [])
      .filter((item) => !seen.has(item.id) && seen.add(item.id))
      .map((item) => ({
        id: item.id,
        title: typeof item.title === "string" ? item.title : "",
        target: resolveMenuTarget(item.url, item.urlType),
        children: nodesOf(item.id),
      }));
  return nodesOf(0);
}

export function groupClassify(items: unknown, path: string): ClassifyGroup[] {
  const groups = new Map<number, ClassifyGroup>();
  for (const item of Array.isArray(items) ? items : []) {
    if (!isRecord(item) || !isId(item.id) || typeof item.name !== "string") continue;
    const type = Number(item.type) || 0;
    const group = groups.get(type) ?? { type, entries: [] };
    group.entries.push({ id: item.id, name: item.name, to: `${path}?id=${item.id}` });
    groups.set(type, group);
  }
  return [...groups.values()];
}

export const entryCountOf = (node: MenuNode): number =>
  node.groups ? node.groups.reduce((sum, group) => sum + group.entries.length, 0) : node.children.length;

/** docs/behaviour.md#constants. */
export const GRID_THRESHOLD = 6;
