// The board screen: the board as the companion sees it, and on a simulated board a tap on
// a space puts a chip (side 1, then side 2, then lifted).

import * as api from "./api.js";
import { h, fieldError, showError } from "./ui.js";
import { boardView, nextSimChip, noteSimTap, withPending } from "./board.js";
import { sideNames } from "./gingo.js";

export async function mountBoard(main, ctx) {
  const box = h("div", { id: "board-box" });
  const note = h("p", { class: "muted", id: "sim-note" });
  const err = fieldError("board-error");
  main.append(h("section", { class: "panel" }, h("h1", null, "Board"), note, box, err));
  let latest = null;
  const frames = new Map();
  const sides = new Map();  // game -> each side's players' names ("Ann & Cy"), not "Side 1"
  function draw(board) {
    board = withPending(board);
    latest = board;
    const sim = ctx.isSim();
    note.textContent = sim ? "Simulated board: tap a space to put a side 1 chip, tap again for side 2, again to lift it."
      : `Sensors: ${ctx.health ? ctx.health.sensors : "unknown"}.`;
    const names = sides.get(board.game) || null;
    box.replaceChildren(boardView(board, { sim, names, onTap: tap, frames: frames.get(board.game) || null }));
    ctx.showGin(board, names);
  }
  async function update() {
    try { ctx.health = await api.get("/api/v1/health"); } catch { /* keep the last */ }
    const board = await ctx.loadBoard();
    if (!board) { note.textContent = "No connection to the companion."; return; }
    if (board.game && !frames.has(board.game)) {  // the suit rows name each space's cards, the players each side
      try {
        const got = await api.get(`/api/v1/games/${encodeURIComponent(board.game)}`);
        const g = got.game || got;
        frames.set(board.game, (g.state && g.state.frames) || g.frames || (g.dealt && g.dealt.frames) || null);
        sides.set(board.game, sideNames(g.players || [], (g.rules || {}).sides));
      } catch { /* named by row and column meanwhile */ }
    }
    draw(board);
  }
  async function tap(space) {
    const next = nextSimChip(latest, space);
    try {
      await ctx.write("POST", "/api/v1/board/sim", { space, side: next }, { clientId: false });
      showError(err, "");
      noteSimTap(space, next);
      draw(latest);
    } catch (e) { showError(err, api.says(e)); }
  }
  ctx.current = { update };
  await update();
}
