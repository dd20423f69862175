/** The top menu: CSS alone decides its layout at first paint, and it works without JavaScript (docs/behaviour.md#the-shell). */
import { type MouseEventHandler, type ReactNode, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useLocation } from "wouter";
import { classifyKey, keys } from "../../shared/data-keys.ts";
import type { ClassifyMenu } from "../../shared/entities.ts";
import { splitLangPath } from "../../shared/routes.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { useApi } from "../data/use-api.ts";
import { useHydrated } from "../hooks/use-hydrated.ts";
import { fill } from "../i18n/fill.ts";
import { HEADER_MESSAGES } from "../i18n/messages-header.ts";
import { useT } from "../i18n/use-t.ts";
import { AnchorLink } from "../routing/anchor-link.tsx";
import { PageLink } from "../routing/page-link.tsx";
import { ChevronIcon, ExternalIcon, MenuIcon } from "./menu-icons.tsx";
import { buildMenuTree, entryCountOf, GRID_THRESHOLD, groupClassify, type MenuNode, type MenuTarget } from "./menu-tree.ts";
import { menuModeNow, useMenuMode, useThrottled } from "./use-layout.ts";

const HOVER_THROTTLE_MS = 500;
const MENU_ID = "site-menu";
const NO_SCRIPT_TOGGLE_ID = "site-menu-toggle";
const SUBMENU_ID_PREFIX = "submenu-";

const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(" ");

interface MenuControl {
  vertical: boolean;
  openId: number | null;
  open(id: number): void;
  close(id: number): void;
  toggle(id: number): void;
  hover(id: number | null): void;
  navigated(): void;
}

interface NoScriptToggle {
  open: boolean;
  focused: boolean;
}

const UNTOUCHED: NoScriptToggle = { open: false, focused: false };

function noScriptToggle(): NoScriptToggle {
  const input = document.getElementById(NO_SCRIPT_TOGGLE_ID);
  return { open: input instanceof HTMLInputElement && input.checked, focused: input !== null && input === document.activeElement };
}

function itemInUse(): number | null {
  const item = document.querySelector(`#${MENU_ID} > .has-submenu:focus-within, #${MENU_ID} > .has-submenu:hover`);
  const id = item?.querySelector(":scope > .submenu")?.id.slice(SUBMENU_ID_PREFIX.length);
  return id ? Number(id) : null;
}

export function TopMenu() {
  const t = useT(HEADER_MESSAGES);
  const hydrated = useHydrated();
  const mode = useMenuMode();
  const { config } = usePageState();
  const menus = useApi<unknown>(keys.menus());
  const tree = useMemo(() => buildMenuTree(menus.data), [menus.data]);
  // The menu hydrates when first used, so it goes on from the state the visitor left the server HTML in.
  const [toggleBefore] = useState(() => (hydrated || typeof document === "undefined" ? UNTOUCHED : noScriptToggle()));
  const [panelOpen, setPanelOpen] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);
  const hover = useThrottled(setOpenId, HOVER_THROTTLE_MS);
  const toggleRef = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (!hydrated || toggleBefore === UNTOUCHED) return;
    if (toggleBefore.open) setPanelOpen(true);
    if (toggleBefore.focused) toggleRef.current?.focus();
    setOpenId(itemInUse());
  }, [hydrated, toggleBefore]);

  const [modeShown, setModeShown] = useState(mode);
  if (mode !== modeShown) {
    setModeShown(mode);
    if (modeShown !== null) {
      setPanelOpen(false);
      setOpenId(null);
    }
  }

  const control = useMemo<MenuControl>(
    () => ({
      vertical: mode === "vertical",
      openId,
      open: (id) => {
        hover.cancel();
        setOpenId(id);
      },
      close: (id) => {
        hover.cancel();
        setOpenId((current) => (current === id ? null : current));
      },
      toggle: (id) => {
        hover.cancel();
        setOpenId((current) => (current === id ? null : id));
      },
      hover: (id) => {
        // Before its first layout is known (the pointer that woke the menu), by the window's width.
        if ((mode ?? menuModeNow()) === "horizontal") hover.call(id);
      },
      navigated: () => {
        hover.cancel();
        setPanelOpen(false);
        setOpenId(null);
      },
    }),
    [mode, openId, hover],
  );

  const items = useMemo(
    () =>
      tree.map((node) => {
        const classify = config.classify.find((menu) => menu.menuId === node.id);
        return classify ? (
          <ClassifyItem key={node.id} node={node} menu={classify} control={control} />
        ) : (
          <TopItem key={node.id} node={node} control={control} />
        );
      }),
    [tree, config.classify, control],
  );

  const toggleContent = (
    <>
      <MenuIcon />
      <span>{t("shell.menu")}</span>
    </>
  );

  return (
    <nav
      className="site-nav"
      aria-label={t("shell.nav")}
      data-mode={mode ?? undefined}
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        if (openId !== null) {
          const item = event.currentTarget.querySelector(`#${MENU_ID} > .is-open`);
          control.close(openId);
          (
            item?.querySelector<HTMLElement>(":scope > .submenu-toggle") ?? item?.querySelector<HTMLElement>(":scope > .menu-link")
          )?.focus();
        } else if (panelOpen) {
          setPanelOpen(false);
          toggleRef.current?.focus();
        }
      }}
    >
      {hydrated ? (
        <button
          ref={toggleRef}
          type="button"
          className="nav-toggle"
          aria-expanded={panelOpen}
          aria-controls={MENU_ID}
          onClick={() => setPanelOpen((open) => !open)}
        >
          {toggleContent}
        </button>
      ) : (
        <>
          <input type="checkbox" id={NO_SCRIPT_TOGGLE_ID} className="nav-toggle-input" />
          <label htmlFor={NO_SCRIPT_TOGGLE_ID} className="nav-toggle">
            {toggleContent}
          </label>
        </>
      )}
      <ul id={MENU_ID} className={cx("menu", hydrated && "menu-js", panelOpen && "is-open")}>
        {items}
      </ul>
    </nav>
  );
}

function ClassifyItem({ node, menu, control }: { node: MenuNode; menu: ClassifyMenu; control: MenuControl }) {
  const { data } = useApi<unknown>(classifyKey(menu));
  const withGroups = useMemo(() => {
    const groups = groupClassify(data, menu.path);
    return groups.length > 0 ? { ...node, groups } : node;
  }, [node, data, menu.path]);
  return <TopItem node={withGroups} control={control} />;
}

function TopItem({ node, control }: { node: MenuNode; control: MenuControl }) {
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

function SubItems({ nodes, onClick }: { nodes: MenuNode[]; onClick: () => void }) {
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

function MenuLink({
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
          aria-current={target.to === splitLangPath(location).path ? "page" : undefined}
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
