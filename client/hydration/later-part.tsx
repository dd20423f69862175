/**
 * Parts of a page below the fold or rarely used (the footer with its QR previews, the
 * partner marquee, the header's menu and language switch, back-to-top) that nothing
 * needs as the page starts. In the browser each is hydrated only when it is needed: when
 * its element comes near the viewport (unless it waits to be used), or the visitor first
 * points at, touches or focuses it (when-needed.ts). Until then its server HTML stays as
 * it is and works as it does without JavaScript (links, native disclosures, a checkbox
 * toggle). After a client navigation such a part renders at once.
 *
 * A `LaterPart` also keeps its code out of what the page needs to start: a chunk of its
 * own, fetched once the rest of the page has hydrated (so it is there by the time the
 * visitor comes near), or when the part is needed if that comes first. The server loads
 * every part's code before rendering, so its HTML is complete.
 */
import { type ComponentType, memo, type ReactNode, Suspense, use } from "react";
import { useHydrated } from "../hooks/use-hydrated.ts";
import { givenPromise, type NeededWhen, neededPromise, wasNeeded } from "./when-needed.ts";

interface WhenNeededProps {
  /** An element of the part's own server HTML (its root, ideally): the one watched. */
  elementId: string;
  when: NeededWhen;
  /** The part's code: resolves once it can render. */
  load: () => Promise<unknown>;
  loaded: () => boolean;
  children: ReactNode;
}

const onServer = typeof document === "undefined";
/** Read by `use` at once: a render that suspended on `use` must call it again when it goes on. */
const READY: Promise<unknown> = Object.assign(Promise.resolve(), { status: "fulfilled" as const, value: undefined });

/**
 * Holds off hydrating its children until the part is needed and its code is in; on the
 * server, and after hydration (a client navigation), it renders them at once. Its one
 * re-render once hydrated returns the same children, so React goes no deeper.
 */
function WhenNeeded({ elementId, when, load, loaded, children }: WhenNeededProps) {
  const hydrated = useHydrated();
  // While hydrating, once read, the same promise every time: React replays a part that suspended with
  // the promise it suspended on, and warns of (and waits again for) another one handed over in between.
  // Rendered after hydration (a client navigation back to the page), it renders at once.
  const given = hydrated ? undefined : givenPromise(elementId);
  if (!onServer) use(given ?? (hydrated || (wasNeeded(elementId) && loaded()) ? READY : neededPromise(elementId, when, load)));
  return children;
}

/** A part's code: a chunk of its own, loaded once. */
export interface PartCode<P> {
  component: ComponentType<P> | undefined;
  load(): Promise<ComponentType<P>>;
  /** The load a render suspended on, if one did. */
  read?: Promise<ComponentType<P>>;
}

const codes: PartCode<never>[] = [];

/** The code of every part defined so far (a page's own parts are defined when its module loads). */
export function loadLaterParts(): Promise<unknown> {
  return Promise.all(codes.map((code) => code.load()));
}

/** The code of a part, from the component `load` resolves to. */
export function partCode<P extends object>(load: () => Promise<ComponentType<P>>): PartCode<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const code: PartCode<P> = {
    component: undefined,
    load: () =>
      (loading ??= load().then(
        (component) => {
          code.component = component;
          return component;
        },
        (error: unknown) => {
          loading = undefined;
          code.read = undefined;
          throw error;
        },
      )),
  };
  codes.push(code as PartCode<never>);
  return code;
}

function Loaded<P extends object>({ code, props }: { code: PartCode<P>; props: P }) {
  // `use` on every render (a render that suspended must call it again as it goes on), with the promise
  // it suspended on if it did (see WhenNeeded); the component is set once loaded.
  if (!code.read && !code.component) code.read = code.load();
  use(code.read ?? READY);
  const Component = code.component as ComponentType<P>;
  return <Component {...props} />;
}

interface LaterPartProps<P> {
  code: PartCode<P>;
  elementId: string;
  /** "near" (the default): when it comes near the viewport or is used; "used": only once the visitor uses it. */
  when?: NeededWhen;
  props: P;
}

const sameProps = <P extends object>(a: LaterPartProps<P>, b: LaterPartProps<P>) =>
  a.code === b.code &&
  a.elementId === b.elementId &&
  a.when === b.when &&
  Object.keys(a.props).length === Object.keys(b.props).length &&
  Object.entries(a.props).every(([name, value]) => Object.is(value, (b.props as Record<string, unknown>)[name]));

/**
 * A part hydrated when needed (a Suspense boundary whose hydration waits), rendered by
 * its code's component with `props`; `elementId` names an element of its HTML to watch.
 * Its parent rendering again with the same props leaves it alone (memo): new props would
 * make React hydrate it at once, needed or not.
 */
export const LaterPart = memo(function LaterPart<P extends object>({ code, elementId, when = "near", props }: LaterPartProps<P>) {
  return (
    <Suspense>
      <WhenNeeded elementId={elementId} when={when} load={code.load} loaded={() => code.component !== undefined}>
        <Loaded code={code} props={props} />
      </WhenNeeded>
    </Suspense>
  );
}, sameProps) as <P extends object>(props: LaterPartProps<P>) => ReactNode;
