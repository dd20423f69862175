/**
 * The server's side of the parts of a page that do not depend on the page: the header and the footer
 * (docs/architecture.md#reused-parts). Components read this only under `import.meta.env.SSR`, so none of
 * it reaches the browser's code.
 */
import { type ComponentType, createContext, createElement, type ReactNode, use } from "react";

export type PartName = "header" | "footer";

/** What an `<img>` needs for React to preload it as it did in place: the attributes its preload reads. */
export type ImageProps = Record<string, string>;

export interface KeptPart {
  /** The `<img>`s of the part, rendered inside its stand-in so React's preloads come out as in place. */
  images: ImageProps[];
}

/**
 * `page`: the page's own render, where a part already kept renders a stand-in (replaced by its HTML after) and
 * a part not yet kept renders in place. `apart`: a part rendered on its own, with holes where the page shows.
 */
export type PartMode =
  | { kind: "page"; nonce: string; kept: (part: PartName, props: object, inPlace: ComponentType<never>) => KeptPart | undefined }
  | { kind: "apart"; nonce: string };

export const PartModeContext = /* @__PURE__ */ createContext<PartMode | null>(null);

export const STAND_IN_TAG = "portal-part";
/** The switch's hole in a header rendered apart: the one part of it that depends on the page's address. */
export const SWITCH_HOLE = "switch";
/** Opens the value of `aria-current` in a part rendered apart: the menu target, in hex, follows. */
export const CURRENT_HOLE = "\uE000";

export function standInId(nonce: string, name: string): string {
  return `${nonce}-${name}`;
}

export function standInOf(nonce: string, name: string, images: ImageProps[] = []): ReactNode {
  return createElement(
    STAND_IN_TAG,
    { "data-n": standInId(nonce, name) },
    images.map((props, index) => createElement("img", { key: index, ...props })),
  );
}

/** The part as the server renders it: in a page's render, the stand-in of the part's kept HTML, if kept. */
export function KeptOnServer<P extends object>({ part, inPlace, props }: { part: PartName; inPlace: ComponentType<P>; props: P }) {
  const mode = use(PartModeContext);
  const kept = mode?.kind === "page" ? mode.kept(part, props, inPlace as ComponentType<never>) : undefined;
  return kept ? standInOf((mode as PartMode).nonce, part, kept.images) : createElement(inPlace, props);
}

/** The same for a part loaded later (the footer): its component, as the server renders it. */
export function keptOnServer<P extends object>(part: PartName, inPlace: ComponentType<P>): ComponentType<P> {
  return (props: P) => <KeptOnServer part={part} inPlace={inPlace} props={props} />;
}

/** In a part rendered apart, where the page fills it: a hole for `aria-current` instead of its value. */
export function currentHoleOf(mode: PartMode | null, to: string): "page" | undefined {
  // Typed as the value it stands for: the page fills it with "page" or nothing.
  return mode?.kind === "apart" ? ((CURRENT_HOLE + holeCodeOf(to)) as "page") : undefined;
}

/** Four hex digits a UTF-16 unit: nothing React would escape in an attribute. */
export const holeCodeOf = (to: string): string =>
  Array.from({ length: to.length }, (_, i) => to.charCodeAt(i).toString(16).padStart(4, "0")).join("");

export const targetOfHoleCode = (code: string): string =>
  String.fromCharCode(...Array.from({ length: code.length / 4 }, (_, i) => Number.parseInt(code.slice(i * 4, i * 4 + 4), 16)));

/** The language switch as the server renders it: a hole in a header rendered apart, itself in a page's render. */
export function HoleWhenApart({ inPlace }: { inPlace: ComponentType }) {
  const mode = use(PartModeContext);
  return mode?.kind === "apart" ? standInOf(mode.nonce, SWITCH_HOLE) : createElement(inPlace);
}
