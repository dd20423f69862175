/** The frame of every page: top menu, content, footer. */
import type { ReactNode } from "react";

export function Shell({ children }: { children: ReactNode }) {
  return (
    <>
      <main id="main-content" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
