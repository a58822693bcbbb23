// Dealt play: drag a card of the hand onto a drop zone (an element with data-drop: the
// discard pile, the board) with pointer events, mouse or finger. A tap stays a tap (the
// main path); a press that moves more than a few pixels becomes a drag, and the click
// that follows it is swallowed. The hand may be redrawn under a drag (a bot moved): the
// drag carries the card's name, not its element.

const THRESHOLD = 8;

export function dragCards(root, onDrop) {
  let drag = null;
  let swallow = false;

  const zoneAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    return el && el.closest ? el.closest("[data-drop]") : null;
  };
  const mark = (zone) => {
    for (const z of document.querySelectorAll(".drop-over")) if (z !== zone) z.classList.remove("drop-over");
    if (zone) zone.classList.add("drop-over");
  };
  const end = () => {
    if (drag && drag.ghost) drag.ghost.remove();
    mark(null);
    drag = null;
  };

  root.addEventListener("pointerdown", (ev) => {
    const card = ev.target.closest && ev.target.closest(".play-card");
    if (!card || ev.button > 0 || !card.dataset.card) return;
    drag = { name: card.dataset.card, x: ev.clientX, y: ev.clientY, id: ev.pointerId, source: card, ghost: null };
  });
  const move = (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < THRESHOLD) return;
      const g = drag.source.cloneNode(true);
      g.removeAttribute("id");
      g.classList.add("play-ghost");
      g.setAttribute("aria-hidden", "true");
      g.tabIndex = -1;
      document.body.appendChild(g);
      drag.ghost = g;
    }
    ev.preventDefault();
    drag.ghost.style.left = `${ev.clientX - 24}px`;
    drag.ghost.style.top = `${ev.clientY - 32}px`;
    mark(zoneAt(ev.clientX, ev.clientY));
  };
  const up = (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const was = drag;
    const zone = was.ghost ? zoneAt(ev.clientX, ev.clientY) : null;
    end();
    if (!was.ghost) return;  // a tap: the click does it
    swallow = true;
    setTimeout(() => { swallow = false; }, 0);
    if (zone) onDrop(was.name, zone.dataset.drop);
  };
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", end);
  root.addEventListener("click", (ev) => {
    if (swallow && ev.target.closest && ev.target.closest(".play-card")) { ev.stopPropagation(); ev.preventDefault(); swallow = false; }
  }, true);
  return {
    destroy: () => {
      end();
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", end);
    },
  };
}
