/** The header's tools: the top menu and the language switch, one part hydrated when first used (header.tsx). */
import { LanguageSwitch } from "./language.tsx";
import { TopMenu } from "./top-menu.tsx";

export function HeaderTools({ id }: { id: string }) {
  // A box without a layout of its own (display: contents): both stay items of the header's row.
  return (
    <div id={id} className="header-tools">
      <TopMenu />
      <LanguageSwitch />
    </div>
  );
}
