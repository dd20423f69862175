/** A message's reader count: only a browser counts, once per page view, after hydration (docs/behaviour.md#reader-counts). */
import { useEffect, useRef, useState } from "react";
import useSWR from "swr";
import { API_PREFIX } from "../../../shared/call-table.ts";
import { keys } from "../../../shared/data-keys.ts";
import type { MessageKind } from "../../../shared/entities.ts";
import { usePageState } from "../../data/page-state-context.tsx";
import { PAGES_MESSAGES } from "../../i18n/messages-pages.ts";
import { useT } from "../../i18n/use-t.ts";

const CRAWLER = /bot\b|bot\/|crawler|spider|slurp|bingpreview|mediapartners|facebookexternalhit|embedly|quora link preview/i;

function countReader(type: MessageKind, pid: number): Promise<unknown> {
  return (
    fetch(`${API_PREFIX}/reader/reader`, {
      method: "PUT",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ type, pid }),
    })
      // Reading the answer to its end lets the request complete (and not show as aborted when the visitor leaves).
      .then((response) => response.text())
      .catch(() => undefined)
  );
}

export function ReaderCount({ type, pid }: { type: MessageKind; pid: number }) {
  const t = useT(PAGES_MESSAGES);
  const preview = usePageState().preview === true;
  const view = `${type}:${pid}`;
  // Refs survive React's development double effects, so one view makes one PUT.
  const counted = useRef<string | null>(null);
  const [ready, setReady] = useState<string | null>(null);

  useEffect(() => {
    if (counted.current === view) return;
    counted.current = view;
    // A crawler's or an editor's preview is no reader; the count is shown to the editor all the same.
    if (CRAWLER.test(navigator.userAgent)) return;
    if (preview) {
      setReady(view);
      return;
    }
    // Read after the PUT settles, whatever its answer (a 429 still has a count to show).
    void countReader(type, pid).then(() => setReady(view));
  }, [view, type, pid, preview]);

  const { data } = useSWR<number>(ready === view ? keys.readerCount(type, pid) : null, { revalidateOnMount: true });
  const shown = ready === view && typeof data === "number";
  return (
    <span className="reader-count" aria-live="polite" aria-busy={!shown}>
      {shown ? t.count("pages.message.readers", data) : null}
    </span>
  );
}
