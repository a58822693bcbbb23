// History and statistics: every finished game (date, game, rule set, result) and each
// player's numbers per game, computed on the companion (GET /api/v1/history, /api/v1/stats).

import * as api from "./api.js";
import { h, fieldError, showError } from "./ui.js";
import { gameItem, gameLabel, variantsOf, dateText } from "./games.js";

export async function mountHistory(main, ctx, who) {
  const list = h("ul", { class: "game-list", id: "history-list" });
  const more = h("button", { type: "button", class: "btn", id: "history-more", hidden: true }, "Show older games");
  const err = fieldError("history-error");
  const count = h("p", { class: "muted", id: "history-count" });
  const player = who ? decodeURIComponent(who) : "";
  main.append(h("section", { class: "panel" },
    h("h1", null, "History", player ? h("small", null, ` · ${player}`) : null),
    h("p", { class: "help" }, "Every finished game, the most recent first."),
    count, list, more, err,
    h("div", { class: "actions" }, h("a", { class: "btn", href: "#/stats", id: "to-stats" }, "Players and statistics"))));
  let before = null;
  let asked = 0;      // loads started: only the latest one's answer is shown
  const q = (limit, extra) => `/api/v1/history?limit=${limit}` + (player ? `&player=${encodeURIComponent(player)}` : "") + extra;
  // reset: the list again from the most recent game, down to the oldest game it shows now (a
  // live refresh keeps the older games loaded); else the next older page, after the last game shown
  async function page(reset) {
    if (!reset && !before) return;  // nothing older: never the first page again
    const n = ++asked;
    const rows = [...list.querySelectorAll("li[data-game]")];
    const oldest = reset && rows.length > 50 ? rows[rows.length - 1].dataset.game : null;
    const variants = await variantsOf(ctx);
    let body;
    try { body = await api.get(reset ? q(oldest ? Math.min(rows.length + 50, 1000) : 50, "") : q(50, before ? `&before=${encodeURIComponent(before)}` : "")); }
    catch (e) { if (n === asked) showError(err, e instanceof api.NetError ? "No connection to the companion." : api.says(e)); return; }
    if (n !== asked) return;  // a newer load is under way: its answer is the one to show
    showError(err, "");
    let games = body.games || [];
    let next = body.next_before;
    const cut = oldest ? games.findIndex(g => g.id === oldest) : -1;
    if (cut >= 0) {
      if (cut + 1 < games.length || next) next = oldest;
      games = games.slice(0, cut + 1);
    }
    const have = new Set(reset ? [] : rows.map(li => li.dataset.game));
    const items = games.filter(g => !have.has(g.id)).map(g => gameItem(g, variants));
    if (reset) list.replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, "No finished games yet.")]));
    else list.append(...items);
    before = next;
    more.hidden = !before;
    count.textContent = `${body.total} finished game${body.total === 1 ? "" : "s"}`;
  }
  more.addEventListener("click", async () => {
    if (more.disabled) return;
    more.disabled = true;  // one page at a time: a second tap would ask for the same page again
    try { await page(false); } finally { more.disabled = false; }
  });
  ctx.current = { update: (msgs) => { if (msgs === null || (msgs || []).length) page(true); } };
  await page(true);
}

function stat(label, value, key) {
  return h("div", { class: "stat", dataset: { stat: key } }, h("span", { class: "stat-value" }, String(value)), h("span", { class: "stat-label" }, label));
}

function variantBlock(v, variants) {
  const label = gameLabel({ variant: v.variant }, variants);
  const numbers = [stat("games", v.games, "games"), stat("wins", v.wins, "wins"), stat("losses", v.losses, "losses"),
    stat("win streak now", v.current_streak, "current_streak"), stat("best streak", v.best_streak, "best_streak"),
    stat("hands", v.hands, "hands"), stat("hands won", v.hands_won, "hands_won")];
  if (v.average_hand !== null && v.average_hand !== undefined) {
    numbers.push(stat("points a hand", v.average_hand, "average_hand"));
    // gins and undercuts where the game has them (its variant says its gin word)
    const kind = (variants || []).find(x => x.name === v.variant);
    if (!kind || kind.ginWord) {
      numbers.push(stat("gins", v.gins, "gins"), stat("undercuts", v.undercuts, "undercuts"));
      if (v.big_gins) numbers.push(stat("big gins", v.big_gins, "big_gins"));
    }
  }
  const h2h = v.head_to_head.length ? h("ul", { class: "h2h" }, ...v.head_to_head.map(x =>
    h("li", { dataset: { opponent: x.opponent } }, `against ${x.opponent}: `, h("strong", null, `${x.wins}–${x.losses}`),
      h("span", { class: "muted" }, ` in ${x.games} game${x.games === 1 ? "" : "s"}`)))) : null;
  return h("section", { class: "variant-stats", dataset: { variant: v.variant } },
    h("h2", null, label), h("div", { class: "stats-grid" }, ...numbers), h2h ? h("div", { class: "label" }, "Head to head") : null, h2h);
}

export async function mountStats(main, ctx, who) {
  const player = who ? decodeURIComponent(who) : "";
  const box = h("div", { id: "stats-box" });
  const err = fieldError("stats-error");
  main.append(h("section", { class: "panel" },
    h("h1", null, player ? player : "Players and statistics"),
    h("p", { class: "help" }, player ? "Finished games count for wins and streaks; every scored hand counts for the hand numbers."
      : "Everyone who has played on this companion. Tap a name for the numbers per game."),
    err, box,
    h("div", { class: "actions" },
      player ? h("a", { class: "btn", href: "#/stats", id: "all-players" }, "All players") : null,
      h("a", { class: "btn", href: player ? `#/history/${encodeURIComponent(player)}` : "#/history", id: "to-history" },
        player ? `${player}'s games` : "History"))));
  async function update() {
    const variants = await variantsOf(ctx);
    let body;
    try { body = await api.get("/api/v1/stats" + (player ? `?player=${encodeURIComponent(player)}` : "")); }
    catch (e) { showError(err, e instanceof api.NetError ? "No connection to the companion." : api.says(e)); return; }
    showError(err, "");
    const people = body.players || [];
    if (!people.length) {
      box.replaceChildren(h("p", { class: "muted" }, player ? `No games for ${player} yet.` : "Nobody has played yet."));
      return;
    }
    if (!player) {
      box.replaceChildren(h("ul", { class: "game-list", id: "player-list" }, ...people.map(p =>
        h("li", { dataset: { player: p.name } }, h("a", { class: "game-link", href: `#/stats/${encodeURIComponent(p.name)}` },
          h("strong", null, p.name),
          h("span", null, `${p.wins} win${p.wins === 1 ? "" : "s"} in ${p.games} finished game${p.games === 1 ? "" : "s"}`),
          h("span", { class: "muted" }, `last played ${dateText(p.last_played)} · ${p.variants.map(v => gameLabel({ variant: v.variant }, variants)).join(", ")}`))))));
      return;
    }
    const p = people[0];
    box.replaceChildren(h("div", { class: "stats-grid", id: "player-totals" },
      stat("games", p.games, "games"), stat("wins", p.wins, "wins"), stat("losses", p.losses, "losses")),
    ...p.variants.map(v => variantBlock(v, variants)));
  }
  ctx.current = { update: (msgs) => { if (msgs === null || (msgs || []).length) update(); } };
  await update();
}

// Names of earlier players, most recent first (for the new-game form).
export async function knownPlayers() {
  try { return ((await api.get("/api/v1/players")).players || []).map(p => p.name); } catch { return []; }
}
