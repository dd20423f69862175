/** The top menu: CSS alone decides its layout at first paint, and it works without JavaScript (docs/behaviour.md#the-shell). */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { keys } from "../../shared/data-keys.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { useApi } from "../data/use-api.ts";
import { useHydrated } from "../hooks/use-hydrated.ts";
import { HEADER_MESSAGES } from "../i18n/messages-header.ts";
import { useT } from "../i18n/use-t.ts";
import { MenuIcon } from "./menu-icons.tsx";
import { cx, type MenuControl, SUBMENU_ID_PREFIX, TopItem, WithGroups } from "./menu-items.tsx";
import { MoreMenu } from "./menu-more.tsx";
import { buildMenuTree } from "./menu-tree.ts";
import { menuModeNow, useMenuMode, useThrottled } from "./use-layout.ts";

const HOVER_THROTTLE_MS = 500;
const MENU_ID = "site-menu";
const NO_SCRIPT_TOGGLE_ID = "site-menu-toggle";

interface NoScriptToggle {
  open: boolean;
  focused: boolean;
}

const UNTOUCHED: NoScriptToggle = { open: false, focused: false };

function closeMore(details: HTMLDetailsElement | null): void {
  if (details) details.open = false;
}

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
  const moreRef = useRef<HTMLDetailsElement>(null);
  useLayoutEffect(() => {
    if (!hydrated || toggleBefore === UNTOUCHED) return;
    if (toggleBefore.open) setPanelOpen(true);
    if (toggleBefore.focused) toggleRef.current?.focus();
    setOpenId(itemInUse());
  }, [hydrated, toggleBefore]);
  // Like the submenus, More closes when the visitor presses anywhere else.
  useEffect(() => {
    const closeFromOutside = (event: PointerEvent) => {
      if (!moreRef.current?.contains(event.target as Node | null)) closeMore(moreRef.current);
    };
    document.addEventListener("pointerdown", closeFromOutside);
    return () => document.removeEventListener("pointerdown", closeFromOutside);
  }, []);
  // Between the two layouts More has nothing to stay open for; the first mode known is no change.
  const modeBefore = useRef(mode);
  useEffect(() => {
    if (modeBefore.current !== null && mode !== modeBefore.current) closeMore(moreRef.current);
    modeBefore.current = mode;
  }, [mode]);

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
        closeMore(moreRef.current);
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
          <WithGroups key={node.id} node={node} menu={classify} render={(full) => <TopItem node={full} control={control} />} />
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
        const more = moreRef.current;
        if (more?.open && more.contains(event.target as Node)) {
          more.open = false;
          more.querySelector("summary")?.focus();
        } else if (openId !== null) {
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
      <MoreMenu tree={tree} classify={config.classify} detailsRef={moreRef} onNavigated={control.navigated} />
    </nav>
  );
}
