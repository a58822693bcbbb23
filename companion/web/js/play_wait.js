// Dealt Gin-Go on the board: after a meld, a hit or a going out the next turn waits until
// the sensors read the game's board (GET .../view's `waiting_for_board`: every space still
// wrong, as pending, bumps and unexpected chips). The Play screen says what to do about
// each one in the player's own frame (each space named by the card it is in that frame,
// as the page's board draws it), outlines the spaces on the board, and holds the moves
// back with the reason instead of sending a turn the companion would refuse.

import { h } from "./ui.js";
import { face } from "./play_cards.js";

// The card each space is in `side`'s frame ({"AS": 0, ...} turned round).
function cardsBySpace(frames, side) {
  const out = new Map();
  for (const [card, space] of Object.entries((frames && frames[side]) || {})) out.set(space, card);
  return out;
}

// The spaces the board waits for, each {kind: "pending"|"bump"|"unexpected", space, side
// (the chip to place, or the chip there now), to (a bump: the side whose chip goes there),
// card (the space's card in the frame `side` reads the board in: the player's)}.
export function waitItems(wait, frames, side) {
  if (!wait) return [];
  const cards = cardsBySpace(frames, side);
  const item = (kind) => (x) => ({ kind, space: x.space, name: x.name, side: String(x.side),
    to: x.to === undefined ? null : String(x.to), card: cards.get(x.space) || null });
  return [...(wait.pending || []).map(item("pending")), ...(wait.bumps || []).map(item("bump")),
    ...(wait.unexpected || []).map(item("unexpected"))];
}

// A space's words: its card in the player's frame ("4♥"), else its row and column.
function spaceWords(it, deck) { return it.card ? face(it.card, deck) : it.name; }

// env: {wait (the view's waiting_for_board), frames, side (the frame: the player's side, or
// side 1 for a phone without a seat), seat (null: watching), teams, sideNames, deck}
export function waitPanel(env) {
  const items = waitItems(env.wait, env.frames, env.side);
  if (!items.length) return null;
  const mine = env.seat !== null && env.seat !== undefined;
  const whose = (side) => mine && side === env.side ? (env.teams ? "your side's" : "your") : `${env.sideNames[side] || `side ${side}`}'s`;
  const spaces = (list) => list.map(it => h("span", {
    class: `play-wait-space wait-${it.kind}`, dataset: { space: String(it.space), kind: it.kind, card: it.card || "" },
  }, spaceWords(it, env.deck)));
  // one short paragraph (the hand above must stay in view): what to do, kind by kind
  const lines = [];
  for (const s of ["1", "2"]) {  // chips to place, one sentence per side
    const list = items.filter(it => it.kind === "pending" && it.side === s);
    if (list.length) lines.push(h("span", { class: "play-wait-place" }, `Place ${whose(s)} chip${list.length === 1 ? "" : "s"} on `, ...spaced(spaces(list)), "."));
  }
  for (const [s, to] of [["2", "1"], ["1", "2"]]) {  // chips to bump, one sentence per way round
    const list = items.filter(it => it.kind === "bump" && it.side === s && it.to === to);
    const n = list.length === 1 ? "chip" : "chips";
    if (list.length) lines.push(h("span", { class: "play-wait-bump" }, `Bump ${whose(s)} ${n} off `, ...spaced(spaces(list)),
      `, put ${whose(to)} ${n} there.`));
  }
  const odd = items.filter(x => x.kind === "unexpected");
  for (const s of ["1", "2"]) {
    const list = odd.filter(it => it.side === s);
    if (list.length) lines.push(h("span", { class: "play-wait-lift" }, `Lift ${whose(s)} chip${list.length === 1 ? "" : "s"} off `,
      ...spaced(spaces(list)), list.length === 1 ? " (no chip belongs there)." : " (no chips belong there)."));
  }
  // a phone without a seat reads the board in side 1's frame: say so
  const frame = mine ? null : h("span", { class: "play-wait-frame" }, `Spaces by ${env.sideNames[env.side] || `side ${env.side}`}'s cards, as on the board.`);
  // a long list (chips knocked about) scrolls inside its box, which keeps the hand above
  // it in view; the box can then take the focus, so a keyboard scrolls it too
  return h("div", { class: "play-wait", id: "play-wait", role: "region", "aria-label": "what the board waits for",
    tabindex: "0", dataset: { count: String(items.length) } },
    h("p", null, h("strong", { class: "play-wait-head" }, "Waiting for the board: "), ...spaced(lines), frame ? " " : null, frame));
}

function spaced(els) {
  const out = [];
  els.forEach((el, i) => { if (i) out.push(" "); out.push(el); });
  return out;
}

// Outline the spaces the board waits for on the page's board (drawn by play_board.js).
export function markWaits(boardEl, wait, frames, side) {
  if (!boardEl) return;
  const words = { pending: "the board waits: place this chip", bump: "the board waits: bump this chip",
    unexpected: "the board waits: lift this chip" };
  for (const it of waitItems(wait, frames, side)) {
    const el = boardEl.querySelector(`.space[data-space="${it.space}"]`);
    if (!el) continue;
    el.classList.add("wait", `wait-${it.kind}`);
    el.dataset.wait = it.kind;
    const label = `${el.getAttribute("aria-label") || ""}; ${words[it.kind]}`;
    el.setAttribute("aria-label", label);
    el.title = label;
  }
}

// The wait box sits in the moves panel, under the hand, in the dock that sticks to the
// bottom of the screen over the page; at the top of a tall page (a full hand, a long list)
// the dock would cover the board the box speaks of. Shrink the box (its list scrolls
// inside) until the dock, stuck, starts below what is above it, but never under about two
// lines. Measured as at the top of the page, where the board, the hand and the moves must
// share the screen. While more of the list is below, the box's bottom edge glows (class "more").
export function fitWait(root) {
  const box = root.querySelector("#play-wait");
  if (!box) return;
  const dock = root.querySelector("#play-dock");
  const above = dock && dock.previousElementSibling;
  // not on a small phone (the dock is not stuck there: the page scrolls instead)
  if (dock && above && dock.contains(box) && getComputedStyle(dock).position === "sticky") {
    box.style.maxHeight = "";
    const stuckTop = innerHeight - parseFloat(getComputedStyle(dock).bottom) - dock.offsetHeight;
    const over = above.getBoundingClientRect().bottom + scrollY + 2 - stuckTop;
    if (over > 0) {
      const least = 3.2 * parseFloat(getComputedStyle(document.documentElement).fontSize);
      box.style.maxHeight = `${Math.max(least, box.offsetHeight - over)}px`;
    }
  }
  const more = () => box.classList.toggle("more", box.scrollTop + box.clientHeight < box.scrollHeight - 1);
  box.addEventListener("scroll", more, { passive: true });
  more();
}
