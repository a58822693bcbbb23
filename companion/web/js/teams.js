// The Gin Rummy partnership (four players, two teams): the team sheet with its totals,
// and a hand entered as its two pair tables (table 1: seat 1 v seat 2, table 2: seat 3 v
// seat 4), each with who ended it and both deadwood counts.

import * as api from "./api.js";
import { h, fieldError, showError, toast, loadDraft, saveDraft, clearDraft, seg } from "./ui.js";

const TABLES = [[0, 1], [2, 3]];
const TEAMS = [[0, 2], [1, 3]];
const KIND = { gin: "gin", big_gin: "big gin", knock: "knock", undercut: "undercut", void: "no game", showdown: "showdown" };

function namesOf(g) { return (g.players || []).map((p, i) => (typeof p === "string" ? p : p && p.name) || `Player ${i + 1}`); }
export function teamName(names, t) { return `Team ${t ? "B" : "A"}: ${TEAMS[t].map(s => names[s]).join(" & ")}`; }

// What happened at one table of a hand, in words: "Ann knocks, 26".
function tableWords(names, t, r) {
  if (!r || r.winner === null || r.winner === undefined) return `${names[TABLES[t][0]]} v ${names[TABLES[t][1]]}: no game`;
  const seat = TABLES[t][r.winner];
  const pts = Array.isArray(r.points) ? r.points[r.winner] : 0;
  return `${names[seat]} ${KIND[r.kind] || r.kind} ${pts}`;
}

export function teamSheet(g) {
  const names = namesOf(g);
  const hands = g.hands || [];
  const totals = g.team_scores || [0, 0];
  const head = h("tr", null, h("th", { scope: "col" }, "Hand"), h("th", { scope: "col" }, "Team A"), h("th", { scope: "col" }, "Team B"));
  const rows = hands.map((hd) => {
    const r = hd.result || {};
    const tables = (r.extra && r.extra.tables) || [];
    const pts = Array.isArray(r.points) ? r.points : [0, 0];
    return h("tr", { dataset: { hand: hd.n } },
      h("th", { scope: "row" }, `${hd.n}`, h("small", null, " " + tables.map((x, t) => tableWords(names, t, x)).join(" · "))),
      ...[0, 1].map(t => h("td", { class: pts[t] ? "pos" : "zero" }, pts[t] ? String(pts[t]) : "·")));
  });
  const foot = [h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"),
    ...[0, 1].map(t => h("td", { dataset: { teamTotal: t } }, String(totals[t] ?? 0))))];
  if (g.finished && Array.isArray(g.teams)) {
    foot.push(h("tr", { class: "final" }, h("th", { scope: "row" }, "Final"),
      ...[0, 1].map(t => h("td", { dataset: { teamFinal: t } }, String(g.teams[t].final ?? 0)))));
  }
  return h("table", { class: "sheet team-sheet", id: "team-sheet" },
    h("caption", { class: "visually-hidden" }, "Team score sheet"),
    h("thead", null, head), h("tbody", null, ...rows), h("tfoot", null, ...foot));
}

export function mountTeams(main, game, ctx) {
  let g = game;
  const names = namesOf(g);
  const key = `team.${g.id}`;
  const blank = () => ({ tables: TABLES.map(() => ({ ender: "", dw: ["", ""] })) });
  const draft = loadDraft(key, blank());
  const target = (g.rules && g.rules.team_target) || 125;

  const title = h("h1", null, "Partnership", g.preset ? h("small", null, ` · ${g.preset_label || g.preset}`) : null);
  const teamsBox = h("div", { class: "team-totals", id: "team-totals" });
  const winner = h("p", { class: "winner", id: "team-winner", hidden: true });
  const sheet = h("div", { class: "sheet-wrap", id: "sheet" });
  const form = h("form", { class: "panel entry", id: "entry", novalidate: true });
  const err = fieldError("team-error");
  const last = h("p", { class: "help", id: "team-last", "aria-live": "polite" });
  const tools = h("section", { class: "panel tools no-print", id: "tools" });
  main.append(h("section", { class: "panel" }, title,
    h("p", { class: "help" }, `Seats 1 and 3 play together against seats 2 and 4; first team to ${target}.`),
    teamsBox, winner, sheet, last), form, tools);

  function drawTotals() {
    const totals = g.team_scores || [0, 0];
    teamsBox.replaceChildren(...[0, 1].map(t => h("div", { class: "team-box", dataset: { team: t } },
      h("span", { class: "team-name" }, teamName(names, t)),
      h("strong", { class: "team-score" }, String(totals[t] ?? 0)))));
    const won = g.finished && g.winner !== null && g.winner !== undefined;
    winner.hidden = !won;
    winner.textContent = won ? `${teamName(names, g.winner)} win the match (${(g.teams && g.teams[g.winner].final) ?? ""}).` : "";
    sheet.replaceChildren(teamSheet(g));
  }

  function tableField(t) {
    const [a, b] = TABLES[t];
    const d = draft.tables[t];
    const pick = (val) => { d.ender = String(val); saveDraft(key, draft); drawForm(); };
    const dws = [a, b].map((s, k) => {
      const id = `t${t}-dw-${k}`;
      const inp = h("input", { id, type: "number", inputmode: "numeric", min: "0", max: "500", value: d.dw[k] });
      inp.addEventListener("input", () => { d.dw[k] = inp.value; saveDraft(key, draft); });
      return h("div", { class: "dw-field" }, h("label", { for: id }, `${names[s]}'s deadwood`), inp);
    });
    return h("fieldset", { class: "pair-table", id: `table-${t}` },
      h("legend", null, `Table ${t + 1}: ${names[a]} v ${names[b]}`),
      h("div", { class: "label", id: `t${t}-ender-label` }, "Who knocked or went gin?"),
      seg([[a, names[a]], [b, names[b]], ["none", "Nobody (stock ran out)"]], d.ender, pick, `Table ${t + 1}: who ended`),
      h("div", { class: "dw-row" }, ...dws));
  }

  function entryOf() {
    const tables = [];
    for (let t = 0; t < 2; t++) {
      const d = draft.tables[t];
      const [a, b] = TABLES[t];
      if (d.ender === "") return [null, `Table ${t + 1}: say who knocked or went gin (or nobody).`, t];
      const dw = d.dw.map(x => (x === "" || x === null ? NaN : Number(x)));
      if (dw.some(x => !Number.isInteger(x) || x < 0 || x > 500)) return [null, `Table ${t + 1}: type ${names[a]}'s and ${names[b]}'s deadwood (whole numbers, 0 for gin).`, t];
      tables.push({ seats: [a, b], ender: d.ender === "none" ? null : Number(d.ender), deadwood: dw });
    }
    return [{ ender: null, tables }, null, -1];
  }

  function drawForm() {
    if (g.finished) { form.hidden = true; return; }
    form.hidden = false;
    form.replaceChildren(h("h2", null, `Hand ${(g.hands || []).length + 1}`),
      h("p", { class: "help" }, "Enter both tables' results together: who ended each game and both players' deadwood after lay-offs."),
      tableField(0), tableField(1), err,
      h("button", { type: "submit", class: "btn primary", id: "team-save" }, "Save the hand"));
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const [body, problem, t] = entryOf();
    if (!body) { showError(err, problem); const f = form.querySelector(`#table-${t} button, #table-${t} input`); if (f) f.focus(); return; }
    showError(err, "");
    try {
      const res = await ctx.write("POST", `/api/v1/games/${encodeURIComponent(g.id)}/hands`, Object.assign(body, { expected_version: g.version }));
      if (!res) return;  // kept offline
      g = res.game;
      const r = res.result || {};
      last.textContent = `Hand ${(g.hands || []).length}: ${(r.notes || [])[0] || ""}. Team A ${r.points[0]}, Team B ${r.points[1]}.`;
      toast(`Hand saved: Team A ${g.team_scores[0]}, Team B ${g.team_scores[1]}`);
      clearDraft(key);
      Object.assign(draft, blank());
      draw();
    } catch (e) {
      showError(err, e instanceof api.NetError ? "No connection to the companion: try again." : e.message);
      if (e.status === 409) refresh();
    }
  });

  function drawTools() {
    const u = h("button", { type: "button", class: "btn", id: "undo-btn", disabled: !g.undo }, "Undo the last hand");
    u.addEventListener("click", async () => {
      try {
        const res = await ctx.write("POST", `/api/v1/games/${encodeURIComponent(g.id)}/undo`, { expected_version: g.version });
        if (res) { g = res.game; toast("Last entry undone"); draw(); }
      } catch (e) { toast(e.message, "error"); refresh(); }
    });
    tools.replaceChildren(h("div", { class: "actions" }, u,
      h("a", { class: "btn", href: `/api/v1/games/${encodeURIComponent(g.id)}/export.json`, download: `gingo-${g.id}.json` }, "Export (JSON)"),
      h("a", { class: "btn", href: "#/games" }, "All games")));
  }

  function draw() { drawTotals(); drawForm(); drawTools(); }

  async function refresh() {
    try {
      const fresh = await api.get(`/api/v1/games/${encodeURIComponent(g.id)}`);
      if (fresh.version >= g.version) { g = fresh; draw(); }
    } catch { /* keep what is shown */ }
  }

  draw();
  return { update: (msgs) => { if (ctx.touches(msgs, g)) refresh(); } };
}
