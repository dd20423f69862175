/** The shell's few icons, inline so they need no request; decorative, hidden from assistive technology. */
import type { ReactNode } from "react";

function Icon({ size, className, children }: { size: number; className?: string; children: ReactNode }) {
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

export const MenuIcon = () => (
  <Icon size={20}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Icon>
);

export const ChevronIcon = () => (
  <Icon size={12} className="icon-chevron">
    <path d="m6 9 6 6 6-6" />
  </Icon>
);

export const ArrowUpIcon = () => (
  <Icon size={22}>
    <path d="M12 19V5M5 12l7-7 7 7" />
  </Icon>
);

export const ExternalIcon = () => (
  <Icon size={12} className="icon-external">
    <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
  </Icon>
);
