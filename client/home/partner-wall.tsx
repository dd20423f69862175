/** Partner logos as marquee rows: the server renders every row still, and the measured width decides which move (docs/behaviour.md#home-page). */
import { useEffect, useRef, useState } from "react";
import type { Partner } from "../../shared/entities.ts";
import { ResponsiveImg, showsImage } from "../components/responsive-img.tsx";
import { linkOf } from "../data/content-values.ts";
import { fill } from "../i18n/fill.ts";
import { HOME_MESSAGES } from "../i18n/messages-home.ts";
import { useT } from "../i18n/use-t.ts";
import { prefersReducedMotion } from "../routing/scroll.ts";
import { partnerRows, rowMoves } from "./partner-rows.ts";

/** The logos' natural size is 240x96; they show at 160x64 in 200 px slots. */
const LOGO_WIDTH = 160;
const LOGO_HEIGHT = 64;

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

export function PartnerWall({ id, partners }: { id: string; partners: Partner[] }) {
  const t = useT(HOME_MESSAGES);
  const rows = partnerRows(partners);
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | undefined>(undefined);
  // Set once the browser has decided which rows move, for anything that waits on it.
  const [decided, setDecided] = useState(false);

  useEffect(() => {
    setDecided(true);
    const element = ref.current;
    if (!element || prefersReducedMotion()) return;
    const measure = () => setWidth(element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  let first = 0;
  return (
    <div className="partner-rows" id={id} ref={ref} data-ready={decided || undefined}>
      {rows.map((row, index) => {
        const moving = width !== undefined && rowMoves(width, row.length);
        const start = first;
        first += row.length;
        const logos = (copy: boolean) =>
          row.map((partner, i) => {
            const url = linkOf(partner.url);
            const label = fill(t("home.partnerLogo"), { n: hostOf(url) || start + i + 1 });
            const logo = showsImage(partner.logo) ? (
              <ResponsiveImg
                src={partner.logo}
                alt={label}
                width={LOGO_WIDTH}
                height={LOGO_HEIGHT}
                box={[LOGO_WIDTH, LOGO_WIDTH]}
                sizes={`${LOGO_WIDTH}px`}
                loading="lazy"
                decoding="async"
              />
            ) : (
              <span className="partner-name">{label}</span>
            );
            return (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: logos are positions in a row rebuilt from the list
                key={`${copy ? "c" : "o"}${start + i}`}
                className="partner"
                aria-hidden={copy || undefined}
              >
                {url ? (
                  <a href={url} target="_blank" rel="noopener noreferrer" tabIndex={copy ? -1 : undefined}>
                    {logo}
                    <span className="visually-hidden">{t("home.newTab")}</span>
                  </a>
                ) : (
                  logo
                )}
              </li>
            );
          });
        return (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions, rebuilt from the list each render
            key={index}
            className={`partner-row${index % 2 ? " partner-row-fast" : ""}${moving ? " is-moving" : ""}`}
            data-count={row.length}
          >
            <ul className="partner-track">
              {logos(false)}
              {moving && logos(true)}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
