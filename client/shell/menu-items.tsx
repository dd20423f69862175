/** The top menu's items: a link, or a link or button with its submenu (a list, groups from a classify call, or a grid). */
import { type MouseEventHandler, type ReactNode, use, useMemo, useRef } from "react";
import { useLocation } from "wouter";
import { classifyKey } from "../../shared/data-keys.ts";
import type { ClassifyMenu } from "../../shared/entities.ts";
import { splitLangPath } from "../../shared/routes.ts";
import { useApi } from "../data/use-api.ts";
import { fill } from "../i18n/fill.ts";
import { HEADER_MESSAGES } from "../i18n/messages-header.ts";
import { useT } from "../i18n/use-t.ts";
import { currentHoleOf, PartModeContext } from "../reused-parts/part-mode.tsx";
import { AnchorLink } from "../routing/anchor-link.tsx";
import { PageLink } from "../routing/page-link.tsx";
import { ChevronIcon, ExternalIcon } from "./menu-icons.tsx";
import { entryCountOf, GRID_THRESHOLD, groupClassify, type MenuNode, type MenuTarget } from "./menu-tree.ts";

export const SUBMENU_ID_PREFIX = "submenu-";

export const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(" ");

export interface MenuControl {
  vertical: boolean;
  openId: number | null;
  open(id: number): void;
  close(id: number): void;
  toggle(id: number): void;
  hover(id: number | null): void;
  navigated(): void;
}

/** The node with its classify call's entries as groups, when it is a classify menu that has any. */
export function WithGroups({ node, menu, render }: { node: MenuNode; menu: ClassifyMenu; render: (node: MenuNode) => ReactNode }) {
  const { data } = useApi<unknown>(classifyKey(menu));
  const withGroups = useMemo(() => {
    const groups = groupClassify(data, menu.path);
    return groups.length > 0 ? { ...node, groups } : node;
  }, [node, data, menu.path]);
  return render(withGroups);
}

export function TopItem({ node, control }: { node: MenuNode; control: MenuControl }) {
  const t = useT(HEADER_MESSAGES);
  const count = entryCountOf(node);
  const open = control.openId === node.id;
  const grid = count > GRID_THRESHOLD;
  const submenuId = `${SUBMENU_ID_PREFIX}${node.id}`;
  // On a wide touch screen (no hover), the first tap on a link with a submenu opens the submenu; the next one follows it.
  const touchOpens = useRef(false);

  if (count === 0) {
    return (
      <li className="menu-item">
        <MenuLink target={node.target} className="menu-link" onClick={control.navigated}>
          {node.title}
        </MenuLink>
      </li>
    );
  }

  return (
    <li
      className={cx("menu-item", "has-submenu", grid && "has-grid", open && "is-open")}
      onMouseEnter={() => control.hover(node.id)}
      onMouseLeave={() => control.hover(null)}
      onPointerDown={(event) => {
        touchOpens.current = event.pointerType === "touch" && !open && !control.vertical;
      }}
      onFocus={(event) => {
        // Escape's return of focus from inside does not open it; its own button opens it on Enter or click.
        const fromOutside = !event.currentTarget.contains(event.relatedTarget as Node | null);
        if (!control.vertical && fromOutside && !(event.target as Element).classList.contains("menu-trigger")) control.open(node.id);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) control.close(node.id);
      }}
    >
      {node.target.kind === "none" ? (
        <button
          type="button"
          className="menu-link menu-trigger"
          aria-expanded={open}
          aria-controls={submenuId}
          onClick={() => control.toggle(node.id)}
        >
          {node.title}
          <ChevronIcon />
        </button>
      ) : (
        <>
          <MenuLink
            target={node.target}
            className="menu-link"
            onClick={(event) => {
              if (touchOpens.current) {
                event.preventDefault();
                control.open(node.id);
              } else {
                control.navigated();
              }
              touchOpens.current = false;
            }}
          >
            {node.title}
            <ChevronIcon />
          </MenuLink>
          {/* In the vertical panel a link's submenu opens with a button of its own (no hover on touch screens). */}
          {control.vertical && (
            <button
              type="button"
              className="submenu-toggle"
              aria-expanded={open}
              aria-controls={submenuId}
              aria-label={fill(t("shell.submenu"), { title: node.title })}
              onClick={() => control.toggle(node.id)}
            >
              <ChevronIcon />
            </button>
          )}
        </>
      )}
      <div className={cx("submenu", grid && "submenu-grid")} id={submenuId}>
        {node.groups ? (
          node.groups.map((group) => (
            <ul key={group.type} className="submenu-list submenu-group" data-type={group.type}>
              {group.entries.map((entry) => (
                <li key={entry.id}>
                  <MenuLink target={{ kind: "page", to: entry.to }} className="submenu-link" onClick={control.navigated}>
                    {entry.name}
                  </MenuLink>
                </li>
              ))}
            </ul>
          ))
        ) : (
          <ul className="submenu-list">
            <SubItems nodes={node.children} onClick={control.navigated} />
          </ul>
        )}
      </div>
    </li>
  );
}

export function SubItems({ nodes, onClick }: { nodes: MenuNode[]; onClick: () => void }) {
  return nodes.map((node) => (
    <li key={node.id}>
      <MenuLink target={node.target} className="submenu-link" onClick={onClick}>
        {node.title}
      </MenuLink>
      {node.children.length > 0 && (
        <ul className="submenu-nested">
          <SubItems nodes={node.children} onClick={onClick} />
        </ul>
      )}
    </li>
  ));
}

export function MenuLink({
  target,
  className,
  onClick,
  children,
}: {
  target: MenuTarget;
  className: string;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
  children: ReactNode;
}) {
  const t = useT(HEADER_MESSAGES);
  const [location] = useLocation();
  switch (target.kind) {
    case "page":
      return (
        <PageLink
          to={target.to}
          className={className}
          aria-current={
            // On the server, in a header rendered apart to be kept, a hole the page fills (docs/architecture.md#reused-parts).
            (import.meta.env.SSR ? currentHoleOf(use(PartModeContext), target.to) : undefined) ??
            (target.to === splitLangPath(location).path ? "page" : undefined)
          }
          onClick={onClick}
        >
          {children}
        </PageLink>
      );
    case "anchor":
      return (
        <AnchorLink anchor={target.anchor} className={className} onClick={onClick}>
          {children}
        </AnchorLink>
      );
    case "external":
      return (
        <a href={target.href} className={className} target="_blank" rel="noopener noreferrer" onClick={onClick}>
          {children}
          <ExternalIcon />
          <span className="visually-hidden">{t("shell.newWindow")}</span>
        </a>
      );
    default:
      return <span className={cx(className, "menu-text")}>{children}</span>;
  }
}
