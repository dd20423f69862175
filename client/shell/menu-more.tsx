/**
 * "More" at the end of the wide menu's row: a disclosure listing the items that do not fit the row,
 * each with its submenu's entries below it. Which ones is set by the header's measure (menu-fold.css).
 */
import type { Ref } from "react";
import type { ClassifyMenu } from "../../shared/entities.ts";
import { HEADER_MESSAGES } from "../i18n/messages-header.ts";
import { useT } from "../i18n/use-t.ts";
import { ChevronIcon } from "./menu-icons.tsx";
import { MenuLink, SubItems, WithGroups } from "./menu-items.tsx";
import type { MenuNode } from "./menu-tree.ts";

interface MoreMenuProps {
  tree: MenuNode[];
  classify: ClassifyMenu[];
  detailsRef: Ref<HTMLDetailsElement>;
  onNavigated: () => void;
}

export function MoreMenu({ tree, classify, detailsRef, onNavigated }: MoreMenuProps) {
  const t = useT(HEADER_MESSAGES);
  return (
    <details className="menu-more" ref={detailsRef}>
      <summary className="menu-more-toggle">
        {t("shell.more")}
        <ChevronIcon />
      </summary>
      <ul className="menu-more-list">
        {tree.map((node) => {
          const menu = classify.find((one) => one.menuId === node.id);
          return menu ? (
            <WithGroups key={node.id} node={node} menu={menu} render={(full) => <MoreItem node={full} onNavigated={onNavigated} />} />
          ) : (
            <MoreItem key={node.id} node={node} onNavigated={onNavigated} />
          );
        })}
      </ul>
    </details>
  );
}

function MoreItem({ node, onNavigated }: { node: MenuNode; onNavigated: () => void }) {
  return (
    <li>
      <MenuLink target={node.target} className="menu-more-link" onClick={onNavigated}>
        {node.title}
      </MenuLink>
      {node.groups
        ? node.groups.map((group) => (
            <ul key={group.type} className="menu-more-sub" data-type={group.type}>
              {group.entries.map((entry) => (
                <li key={entry.id}>
                  <MenuLink target={{ kind: "page", to: entry.to }} className="submenu-link" onClick={onNavigated}>
                    {entry.name}
                  </MenuLink>
                </li>
              ))}
            </ul>
          ))
        : node.children.length > 0 && (
            <ul className="menu-more-sub">
              <SubItems nodes={node.children} onClick={onNavigated} />
            </ul>
          )}
    </li>
  );
}
