/** The shell's icons, inline and decorative; those only the menu and footer show are in menu-icons.tsx. */
import type { ReactNode } from "react";

export function Icon({ size, className, children }: { size: number; className?: string; children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className ? `icon ${className}` : "icon"}
    >
      {children}
    </svg>
  );
}

export const ReloadIcon = () => (
  <Icon size={48} className="icon-reload">
    <path d="M21 12a9 9 0 1 1-2.64-6.36" />
    <path d="M21 3v6h-6" />
  </Icon>
);

export const ArrowUpIcon = () => (
  <Icon size={22}>
    <path d="M12 19V5M5 12l7-7 7 7" />
  </Icon>
);

export const SearchIcon = () => (
  <Icon size={18} className="icon-search">
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </Icon>
);
