// A mouse press that a redraw interrupts still counts.
//
// The screens redraw from live news and from answers, and a redraw builds new buttons.
// With a mouse, a button is pressed on mousedown and clicked on mouseup, on the same
// element. If the button is rebuilt between the two (news that arrived while the button
// was held), the browser clicks nothing: the element pressed has left the page.
// (Chromium, tested: press, rebuild, release -> no click.) A finger does not lose its
// tap this way, because a touch's click is aimed when the finger lifts.
//
// So: on a mouse release, if the element pressed has left the page and the element
// under the pointer is its rebuilt twin (same tag, same id and same identifying data
// attributes), click the twin, unless the browser clicked something after all: there
// is never a second click.

const KEYS = ["space", "card", "action", "value", "seat", "hand"];

function identity(el) {
  if (!el || !el.tagName) return null;
  const parts = KEYS.map((k) => el.dataset[k] ?? "");
  if (!el.id && parts.every((p) => p === "")) return null; // nothing names it: leave it alone
  return `${el.tagName}#${el.id}|${parts.join("|")}`;
}

function pressable(target) {
  return target && target.closest ? target.closest("button, [role='button'], a[href]") : null;
}

export function keepPressesAcrossRedraws(doc = document) {
  let pressed = null; // {el, key}
  let clicks = 0; // clicks the browser delivered, to tell whether a release clicked anything
  doc.addEventListener("click", () => { clicks++; }, true);
  doc.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType !== "mouse" || ev.button !== 0) { pressed = null; return; }
    const el = pressable(ev.target);
    const key = identity(el);
    pressed = key ? { el, key } : null;
  }, true);
  doc.addEventListener("pointerup", (ev) => {
    const was = pressed;
    pressed = null;
    if (!was || ev.pointerType !== "mouse" || ev.button !== 0 || was.el.isConnected) return;
    const twin = pressable(doc.elementFromPoint(ev.clientX, ev.clientY));
    if (!twin || twin.disabled || identity(twin) !== was.key) return;
    // after the browser's own mouseup and (missing) click, as a release would have done
    const seen = clicks;
    setTimeout(() => { if (clicks === seen && twin.isConnected && !twin.disabled) twin.click(); }, 0);
  }, true);
  doc.addEventListener("pointercancel", () => { pressed = null; }, true);
}
