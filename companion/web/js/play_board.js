// Dealt Gin-Go: the board above the hand, the compact board the other Gin-Go screens
// use, drawn in the player's own frame (the player's side's cards on the spaces), with
// the chips, each side's chips left and how far from a link, and the spaces the chips of
// the meld or hit the player has chosen go to.

import { h } from "./ui.js";
import { boardView } from "./board.js";
import { standsFor } from "./play_cards.js";

// A seat's side: "1" or "2" (by the game's sides, else even seats are side 1).
export function sideOfSeat(seat, sides) {
  for (const s of ["1", "2"]) if (sides && (sides[s] || []).includes(seat)) return s;
  return seat % 2 === 0 ? "1" : "2";
}

// The spaces the chips of `action` go to, for side `side` (a joker on the card it stands for).
export function targetSpaces(action, frames, side) {
  if (!action || !frames || !frames[side]) return new Set();
  return new Set(standsFor(action).map(c => frames[side][c]).filter(x => x !== undefined));
}

// env: {id, pub (the view's public part), seat, sides, sideNames, preview, live (GET /api/v1/board
// or null), melds (the list of melds on the table, drawn next to the chips)}
export function playBoard(env) {
  const { pub, seat, sides, sideNames } = env;
  const table = pub.table || {};
  if (!pub.frames || !table.board) return null;  // before the suit rows are set
  const side = seat === null || seat === undefined ? "1" : sideOfSeat(seat, sides);
  const targets = targetSpaces(env.preview, pub.frames, side);
  const live = env.live;
  // the live board when it follows this game (the chips still to place show), else the game's own
  const board = live && live.game === env.id && live.expected && !pub.skip_board ? live
    : { expected: table.board, sensed: null, links: table.links, link_distance: table.link_distance };
  const supply = table.supply || {};
  const dist = table.link_distance || {};
  const line = ["1", "2"].map(s => {
    const teams = Object.values(sides || {}).some(seats => seats.length > 1);
    const who = seat === null ? sideNames[s] : s === side ? (teams ? "Your side" : "You") : (teams ? "Other side" : sideNames[s]);
    const far = table.links && table.links[s] ? "linked" : (dist[s] === null || dist[s] === undefined ? "no path" : `${dist[s]} to link`);
    return h("span", { class: `play-chips side-${s}` }, h("span", { class: `chip side-${s}`, "aria-hidden": "true" }),
      ` ${who}: ${supply[s] ?? "?"} chips · ${far}`);
  });
  return h("div", { class: "play-board", id: "play-board", dataset: { drop: "meld", side }, "aria-label": "the board, your cards on the spaces" },
    boardView(board, { names: sideNames, frames: pub.frames, compact: true, own: { side, targets } }),
    h("div", { class: "play-board-foot" }, h("p", { class: "play-chip-line" }, ...line), env.melds || null));
}
