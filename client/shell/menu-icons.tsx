/** The icons of the top menu and the footer (icons.tsx), loaded with them. */
import { Icon } from "./icons.tsx";

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

export const ExternalIcon = () => (
  <Icon size={12} className="icon-external">
    <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
  </Icon>
);
