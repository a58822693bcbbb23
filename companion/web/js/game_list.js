// The games screen: every game (newest first), the way to history, statistics and
// outings, and importing a game exported as JSON.

import * as api from "./api.js";
import { h, fieldError, showError } from "./ui.js";
import { gamesOf, variantsOf, gameItem } from "./games.js";
import { remoteJoinPanel } from "./remote.js";

export async function mountGames(main, ctx) {
  const list = h("ul", { class: "game-list", id: "game-list" });
  const importErr = fieldError("import-error");
  const file = h("input", { type: "file", accept: "application/json,.json", id: "import-file", class: "visually-hidden" });
  file.addEventListener("change", async () => {
    const f = file.files[0];
    if (!f) return;
    try {
      const data = JSON.parse(await f.text());
      const res = await ctx.write("POST", "/api/v1/games/import", data, { clientId: false });
      const g = res && (res.game || res);
      showError(importErr, "");
      if (g && g.id !== undefined) ctx.navigate(`#/game/${g.id}`);
    } catch (e) {
      showError(importErr, e instanceof SyntaxError ? `${f.name} is not a JSON export` : api.says(e));
    }
  });
  main.append(h("section", { class: "panel" },
    h("div", { class: "row-between" }, h("h1", null, "Games"),
      ctx.paired() ? h("a", { class: "btn primary", href: "#/new", id: "new-game" }, "New game") : null),
    list,
    h("div", { class: "actions" },
      h("a", { class: "btn", href: "#/history", id: "history-link" }, "History"),
      h("a", { class: "btn", href: "#/stats", id: "stats-link" }, "Players and statistics"),
      h("a", { class: "btn", href: "#/outings", id: "outings-link" }, "Outings (more than two)"),
      ctx.paired() ? h("label", { for: "import-file", class: "btn" }, "Import a game (JSON)") : null, ctx.paired() ? file : null),
    importErr,
    await remoteJoinPanel(ctx)));
  async function update(msgs, first) {
    let games;
    try { games = gamesOf(await api.get("/api/v1/games?limit=100")); }
    catch (e) { if (first && e instanceof api.NetError) throw e; return; }
    const variants = await variantsOf(ctx);
    games = await withRemote(games);
    list.replaceChildren(...(games.length ? games.slice().reverse().map(g => gameItem(g, variants))
      : [h("li", { class: "muted" }, "No games yet.")]));
  }
  ctx.current = { update };
  await update(null, true);
}

// A remote game's line says so ("remote: hosted by board-a"): a dealt game this board follows
// carries its remote part; a copy of a game with real cards is this board's own line, told
// apart by GET /api/v1/remote (this board's remote games, by id).
async function withRemote(games) {
  let info;
  try { info = await api.get("/api/v1/remote"); } catch { return games; }
  const byId = new Map(((info && info.games) || []).map(r => [r.id, r]));
  if (!byId.size) return games;
  return games.map(g => (g.remote || !byId.has(g.id) ? g : Object.assign({}, g, { remote: byId.get(g.id) })));
}
