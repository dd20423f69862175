/**
 * A press that hydration cut in two: the pointer went down on server HTML that hydration then
 * replaced (a control that works without JavaScript swapped for its scripted one), so the
 * browser sends no click. The click is given to what now stands under the pointer. A touch
 * needs none of this: its click is made from the whole tap, at its end.
 */

interface Press {
  target: Element;
  pointerId: number;
  clicked: boolean;
}

let press: Press | undefined;

function onPointerDown(event: PointerEvent): void {
  const pressed = event.button === 0 && event.pointerType !== "touch" && event.target instanceof Element;
  press = pressed ? { target: event.target as Element, pointerId: event.pointerId, clicked: false } : undefined;
}

/** What a click does something on. */
const CONTROL = "button, a[href], summary, label, input";

function onClick(event: MouseEvent): void {
  // A browser may send the cut press's click to an ancestor of both ends, where it does nothing: not a click that counts.
  if (press && event.target instanceof Element && event.target.closest(CONTROL)) press.clicked = true;
}

function onPointerUp(event: PointerEvent): void {
  const ended = press;
  if (!ended || ended.pointerId !== event.pointerId || ended.target.isConnected) return;
  const { clientX, clientY } = event;
  // After this event's own dispatch, where the browser's click (if any) comes.
  setTimeout(() => {
    if (ended.clicked) return;
    const control = document.elementFromPoint(clientX, clientY)?.closest<HTMLElement>(CONTROL);
    if (control && document.getElementById("root")?.contains(control)) control.click();
  }, 0);
}

/** Watches presses on the page from now on (capture phase, before React's own listeners). */
export function replayLostPresses(): void {
  document.addEventListener("pointerdown", onPointerDown, { capture: true, passive: true });
  document.addEventListener("click", onClick, { capture: true, passive: true });
  document.addEventListener("pointerup", onPointerUp, { capture: true, passive: true });
}
