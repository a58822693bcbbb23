// Seed 004's outing: players in two sides play rounds of pair matches (each an ordinary
// Gin Rummy game), winners meet winners and losers meet losers; standings per player and
// per side. #/outings lists them and starts one; #/outing/ID shows one.

import * as api from "./api.js";
import { h, fieldError, showError, loadDraft, saveDraft, clearDraft, seg } from "./ui.js";

const SIDE = ["Side A", "Side B"];

function ended(o) {
  if (!o.over) return null;
  return o.ended_by === "time" ? "The time is up: the outing is over." : "A side reached the target: the outing is over.";
}

function limits(o) {
  const parts = [];
  if (o.outing_target) parts.push(`ends when a side reaches ${o.outing_target}`);
  if (o.outing_minutes) parts.push(`ends after ${o.outing_minutes} minutes (${Math.max(0, Math.round(o.outing_minutes - o.elapsed_minutes))} left)`);
  return parts.length ? `The outing ${parts.join(", or ")}.` : "No target or time limit: play as long as you like.";
}

// ---- the list and the new-outing form ---------------------------------------------------
export async function mountOutings(main, ctx) {
  const list = h("ul", { class: "game-list", id: "outing-list" });
  const draft = loadDraft("outing", { count: 4, players: [], target: "", minutes: "" });
  const form = h("form", { class: "panel", id: "outing-form", novalidate: true });
  const err = fieldError("outing-error");
  main.append(h("section", { class: "panel" }, h("h1", null, "Outings"),
    h("p", { class: "help" }, "An outing is for more than two: two sides, pair matches at the same time; then winners play winners and losers play losers, with running totals."),
    list), form);

  function drawForm() {
    if (!ctx.paired()) { form.hidden = true; return; }
    while (draft.players.length < draft.count) draft.players.push("");
    const half = draft.count / 2;
    const inputs = [];
    for (let i = 0; i < draft.count; i++) {
      const side = i < half ? 0 : 1;
      const label = `${SIDE[side]}, player ${side ? i - half + 1 : i + 1}`;
      const inp = h("input", { id: `outing-player-${i}`, value: draft.players[i] || "", autocomplete: "off" });
      inp.addEventListener("input", () => { draft.players[i] = inp.value; saveDraft("outing", draft); });
      inputs.push(h("label", { for: `outing-player-${i}` }, label), inp);
    }
    const num = (id, label, keyName, help) => {
      const inp = h("input", { id, type: "number", inputmode: "numeric", min: "0", value: draft[keyName] });
      inp.addEventListener("input", () => { draft[keyName] = inp.value; saveDraft("outing", draft); });
      return [h("label", { for: id }, label), inp, h("p", { class: "help" }, help)];
    };
    form.replaceChildren(h("h2", null, "New outing"),
      h("div", { class: "label" }, "Players"),
      seg([4, 6, 8, 10, 12].map(n => [n, String(n)]), draft.count, (n) => { draft.count = Number(n); saveDraft("outing", draft); drawForm(); }, "number of players"),
      h("p", { class: "help" }, "Round 1: the first player of side A plays the first of side B, and so on."),
      ...inputs,
      ...num("outing-target", "Target score (a side's total)", "target", "Empty or 0: no target."),
      ...num("outing-minutes", "Time limit in minutes", "minutes", "Empty or 0: no time limit."),
      err, h("button", { type: "submit", class: "btn primary", id: "outing-start" }, "Start the outing"));
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const names = draft.players.slice(0, draft.count).map(n => n.trim());
    const missing = names.findIndex(n => !n);
    if (missing >= 0) { showError(err, `Type a name for every player (player ${missing + 1} has none).`); form.querySelector(`#outing-player-${missing}`).focus(); return; }
    const options = {};
    if (Number(draft.target) > 0) options.outing_target = Number(draft.target);
    if (Number(draft.minutes) > 0) options.outing_minutes = Number(draft.minutes);
    try {
      const o = await ctx.write("POST", "/api/v1/outings", { players: names, options });
      if (!o) return;
      clearDraft("outing");
      ctx.navigate(`#/outing/${encodeURIComponent(o.id)}`);
    } catch (e) { showError(err, e instanceof api.NetError ? "No connection to the companion: try again." : api.says(e)); }
  });

  async function update(msgs, first) {
    let data;
    try { data = await api.get("/api/v1/outings"); } catch (e) { if (first) throw e; return; }
    const items = (data.outings || []).slice().reverse().map(o => h("li", { dataset: { outing: o.id } },
      h("a", { href: `#/outing/${encodeURIComponent(o.id)}`, class: "game-link" },
        h("strong", null, (o.names || []).join(" · ")), h("br"),
        h("small", { class: "muted" }, o.error ? o.error : `Round ${o.round} · Side A ${o.sides[0].total}, Side B ${o.sides[1].total}${o.over ? " · over" : ""}`))));
    list.replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, "No outings yet.")]));
  }
  drawForm();
  await update(null, true);
  return { update: (msgs) => { if (msgs === null) update(msgs); } };
}

// ---- one outing -----------------------------------------------------------------------------
export async function mountOuting(main, ctx, id) {
  let o = await api.get(`/api/v1/outings/${encodeURIComponent(id)}`);
  const head = h("section", { class: "panel", id: "outing-head" });
  const pairs = h("section", { class: "panel", id: "outing-round" });
  const table = h("section", { class: "panel", id: "outing-standings" });
  const past = h("section", { class: "panel", id: "outing-past" });
  const err = fieldError("outing-round-error");
  main.append(head, pairs, table, past);

  function matchItem(m) {
    const [a, b] = m.players;
    const score = Array.isArray(m.score) ? m.score : [0, 0];
    const state = m.finished ? `${m.winner} won` : m.hands ? `${m.hands} hand${m.hands === 1 ? "" : "s"} played` : "not started";
    return h("li", { dataset: { match: m.index, game: m.game } },
      h("a", { href: `#/game/${encodeURIComponent(m.game)}`, class: "game-link match-link" },
        h("strong", null, `${a} v ${b}`), " ", h("span", { class: "match-score" }, `${score[0]}–${score[1]}`), h("br"),
        h("small", { class: "muted" }, state)));
  }

  function draw() {
    const over = ended(o);
    head.replaceChildren(h("h1", null, "Outing"),
      h("div", { class: "team-totals", id: "side-totals" }, ...o.sides.map(s => h("div", { class: "team-box", dataset: { side: s.side } },
        h("span", { class: "team-name" }, SIDE[s.side]), h("strong", { class: "team-score" }, String(s.total))))),
      over ? h("p", { class: "winner", id: "outing-over" }, over, o.leading_side === null ? " The sides are level." : ` ${SIDE[o.leading_side]} wins.`) : null,
      h("p", { class: "help", id: "outing-limits" }, limits(o)),
      h("a", { class: "btn small", href: "#/outings", id: "all-outings" }, "All outings"));
    const current = o.matches.filter(m => m.round === o.round);
    const kids = [h("h2", null, `Round ${o.round}`),
      h("p", { class: "help" }, "Each match is a Gin Rummy game: tap it to score its hands."),
      h("ul", { class: "game-list", id: "round-matches" }, ...current.map(matchItem))];
    if (o.round_finished && o.next_round && ctx.paired()) {
      const b = h("button", { type: "button", class: "btn primary", id: "next-round" }, `Pair round ${o.round + 1}`);
      b.addEventListener("click", async () => {
        try {
          const res = await ctx.write("POST", `/api/v1/outings/${encodeURIComponent(o.id)}/rounds`, { expected_round: o.round });
          if (res) { o = res; draw(); }
        } catch (e) { showError(err, api.says(e)); refresh(); }
      });
      kids.push(h("p", null, "Every match of this round has ended. Next: ", o.next_round.map(p => p.join(" v ")).join(", "), "."), b, err);
    }
    pairs.replaceChildren(...kids);
    table.replaceChildren(h("h2", null, "Standings"),
      h("table", { class: "sheet standings", id: "standings" },
        h("caption", { class: "visually-hidden" }, "Standings: each player's total"),
        h("thead", null, h("tr", null, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Side"),
          h("th", { scope: "col" }, "Won"), h("th", { scope: "col" }, "Total"))),
        h("tbody", null, ...o.players.map(p => h("tr", { dataset: { player: p.name } },
          h("th", { scope: "row" }, p.name), h("td", null, p.side ? "B" : "A"),
          h("td", null, String(p.matches_won)), h("td", null, String(p.total)))))));
    const earlier = o.matches.filter(m => m.round < o.round);
    past.hidden = !earlier.length;
    past.replaceChildren(h("h2", null, "Earlier rounds"), h("ul", { class: "game-list", id: "past-matches" }, ...earlier.map(matchItem)));
  }

  async function refresh() {
    try { o = await api.get(`/api/v1/outings/${encodeURIComponent(o.id)}`); draw(); } catch { /* keep what is shown */ }
  }
  draw();
  const ids = () => new Set(o.matches.map(m => m.game));
  return { update: (msgs) => {
    if (msgs === null || msgs === undefined || msgs.some(m => ids().has((m.event || {}).game_id) || (m.game && m.game.outing === o.id))) refresh();
  } };
}
