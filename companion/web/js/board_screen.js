// The board screen: the board as the companion sees it, and on a simulated board a tap on
// a space puts a chip (side 1, then side 2, then lifted).

import * as api from "./api.js";
import { h, fieldError, showError } from "./ui.js";
import { boardView, nextSimChip, noteSimTap, withPending } from "./board.js";

export async function mountBoard(main, ctx) {
  const box = h("div", { id: "board-box" });
  const note = h("p", { class: "muted", id: "sim-note" });
  const err = fieldError("board-error");
  main.append(h("section", { class: "panel" }, h("h1", null, "Board"), note, box, err));
  let latest = null;
  const frames = new Map();
  function draw(board) {
    board = withPending(board);
    latest = board;
    const sim = ctx.isSim();
    note.textContent = sim ? "Simulated board: tap a space to put a side 1 chip, tap again for side 2, again to lift it."
      : `Sensors: ${ctx.health ? ctx.health.sensors : "unknown"}.`;
    box.replaceChildren(boardView(board, { sim, names: null, onTap: tap, frames: frames.get(board.game) || null }));
    ctx.showGin(board, null);
  }
  async function update() {
    try { ctx.health = await api.get("/api/v1/health"); } catch { /* keep the last */ }
    const board = await ctx.loadBoard();
    if (!board) { note.textContent = "No connection to the companion."; return; }
    if (board.game && !frames.has(board.game)) {  // the suit rows name each space's cards
      try { const g = await api.get(`/api/v1/games/${encodeURIComponent(board.game)}`); frames.set(board.game, (g.state && g.state.frames) || g.frames || null); }
      catch { /* named by row and column meanwhile */ }
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
