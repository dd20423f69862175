/**
 * Parts of a page hydrated only when needed, each a chunk of its own fetched after the page has
 * hydrated (docs/behaviour.md#start-up-in-the-browser); the server loads every part's code first.
 */
import { type ComponentType, memo, type ReactNode, Suspense, use } from "react";
import { useHydrated } from "../hooks/use-hydrated.ts";
import { givenPromise, type NeededWhen, neededPromise, wasNeeded } from "./when-needed.ts";

interface WhenNeededProps {
  elementId: string;
  when: NeededWhen;
  load: () => Promise<unknown>;
  loaded: () => boolean;
  children: ReactNode;
}

const onServer = typeof document === "undefined";
/** Read by `use` at once: a render that suspended on `use` must call it again when it goes on. */
const READY: Promise<unknown> = Object.assign(Promise.resolve(), { status: "fulfilled" as const, value: undefined });

function WhenNeeded({ elementId, when, load, loaded, children }: WhenNeededProps) {
  const hydrated = useHydrated();
  // The same promise every time while hydrating: React replays a suspended part with the promise it suspended on.
  const given = hydrated ? undefined : givenPromise(elementId);
  if (!onServer) use(given ?? (hydrated || (wasNeeded(elementId) && loaded()) ? READY : neededPromise(elementId, when, load)));
  return children;
}

interface PartCode<P> {
  component: ComponentType<P> | undefined;
  load(): Promise<ComponentType<P>>;
  read?: Promise<ComponentType<P>>;
}

const codes: PartCode<never>[] = [];

/** A page's own parts are defined when its module loads. */
export function loadLaterParts(): Promise<unknown> {
  return Promise.all(codes.map((code) => code.load()));
}

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
  // `use` on every render, with the promise it suspended on if it did (see WhenNeeded).
  if (!code.read && !code.component) code.read = code.load();
  use(code.read ?? READY);
  const Component = code.component as ComponentType<P>;
  return <Component {...props} />;
}

interface LaterPartProps<P> {
  code: PartCode<P>;
  elementId: string;
  when?: NeededWhen;
  props: P;
}

const sameProps = <P extends object>(a: LaterPartProps<P>, b: LaterPartProps<P>) =>
  a.code === b.code &&
  a.elementId === b.elementId &&
  a.when === b.when &&
  Object.keys(a.props).length === Object.keys(b.props).length &&
  Object.entries(a.props).every(([name, value]) => Object.is(value, (b.props as Record<string, unknown>)[name]));

/** Memo: new props would make React hydrate it at once, needed or not. */
export const LaterPart = memo(function LaterPart<P extends object>({ code, elementId, when = "near", props }: LaterPartProps<P>) {
  return (
    <Suspense>
      <WhenNeeded elementId={elementId} when={when} load={code.load} loaded={() => code.component !== undefined}>
        <Loaded code={code} props={props} />
      </WhenNeeded>
    </Suspense>
  );
}, sameProps) as <P extends object>(props: LaterPartProps<P>) => ReactNode;
