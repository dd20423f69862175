/** A press hydration cut in two (the control under it replaced), so the browser sends no click: it is given to what stands there now. */

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

const CONTROL = "button, a[href], summary, label, input";

function onClick(event: MouseEvent): void {
  // A browser may send the cut press's click to an ancestor of both ends, where it does nothing.
  if (press && event.target instanceof Element && event.target.closest(CONTROL)) press.clicked = true;
}

function onPointerUp(event: PointerEvent): void {
  const ended = press;
  if (!ended || ended.pointerId !== event.pointerId || ended.target.isConnected) return;
  const { clientX, clientY } = event;
  setTimeout(() => {
    if (ended.clicked) return;
    const control = document.elementFromPoint(clientX, clientY)?.closest<HTMLElement>(CONTROL);
    if (control && document.getElementById("root")?.contains(control)) control.click();
  }, 0);
}

/** Capture phase, before React's own listeners. */
export function replayLostPresses(): void {
  document.addEventListener("pointerdown", onPointerDown, { capture: true, passive: true });
  document.addEventListener("click", onClick, { capture: true, passive: true });
  document.addEventListener("pointerup", onPointerUp, { capture: true, passive: true });
}
