// The rummy score sheet (Gin Rummy, Color Gin, Ginski): the sheet and the winner, the hand
// entry below it (rummy_entry.js) with its preview and confirmation (rummy_submit.js), the
// history with its corrections, and the Game panel (undo and redo, export, print, rematch).

import * as api from "./api.js";
import { h, fieldError, showError, loadDraft, saveDraft, rulesOf } from "./ui.js";
import { deckFrom } from "./cards.js";
import { SUIT_SYMBOL, namesOf, handsOf, matchOf, plainSheet, colorSheet, finalSummary } from "./rummy_sheet.js";
import { handWords } from "./rummy_views.js";
import { undoButtons, undoOrRedo } from "./undo.js";
import { rummyEntry } from "./rummy_entry.js";
import { rummySubmit } from "./rummy_submit.js";

const KIND_LABEL = {
  gin: "gin", big_gin: "big gin", knock: "knock", undercut: "undercut", void: "no game", showdown: "showdown",
};

export function mountRummy(main, game, ctx) {
  // The state the entry and the submit modules share with the sheet: st.g is the game as
  // last fetched, st.changed the hands another phone changed (marked on the sheet during a review).
  const st = { g: game, changed: null, ctx };
  const names = namesOf(st.g);
  const rules = rulesOf(st.g);
  const deck = deckFrom(rules.deck);
  const key = `game.${st.g.id}`;
  const draft = loadDraft(key, { ender: null, mode: "cards", active: 0, text: {}, deadwood: {}, editing: null, base: null, baseHands: null });
  // A form carries the version it started from: a write from it is checked against that
  // version, so a hand another phone scored meanwhile is shown, never silently built on.
  const save = () => {
    if (draft.base === null || draft.base === undefined) { draft.base = st.g.version; draft.baseHands = handsOf(st.g).length; draft.baseDealer = st.g.dealer; }
    saveDraft(key, draft);
  };

  const title = h("h1", null, `${rules.label}`, st.g.preset ? h("small", null, ` · ${st.g.preset_label || st.g.preset}`) : null);
  const winnerBox = h("div", { id: "winner", class: "winner", hidden: true });
  const sheet = h("div", { class: "sheet-wrap", id: "sheet" });
  const entry = h("section", { class: "panel entry", id: "entry" });
  const preview = h("section", { class: "panel preview", id: "preview", hidden: true });
  const history = h("section", { class: "panel", id: "history" });
  const summary = h("div", { id: "summary-box" });
  const tools = h("section", { class: "panel tools no-print", id: "tools" });
  main.append(h("section", { class: "panel" }, title, winnerBox, sheet), entry, preview, history, summary, tools);

  // ---- score sheet -------------------------------------------------------------------------
  function drawSheet() {
    const m = matchOf(st.g);
    const hands = handsOf(st.g);
    sheet.replaceChildren(rules.suit_columns ? colorSheet(names, hands, m, (st.g.options || {}).target, st.changed)
      : plainSheet(names, hands, m, kindLabel, st.changed));
    if (m.finished) {
      const w = m.winner;
      winnerBox.hidden = false;
      winnerBox.textContent = (w === null || w === undefined) ? "The match is over: a tie." : `${names[w] ?? w} wins the match!`;
    } else winnerBox.hidden = true;
    summary.replaceChildren(...[finalSummary(names, m, !!rules.suit_columns)].filter(Boolean));
  }

  const bigWord = rules.big_word;
  // how a hand ended, in the game's own words where it has them (rules.kind_words)
  const ownWords = rules.kind_words || {};
  function kindLabel(k) { return ownWords[k] || (k === "big_gin" ? bigWord : k === "gin" ? rules.gin_word : (KIND_LABEL[k] || k || "")); }
  const noEnder = (rules.entries || {}).ender === false;  // nobody ends a hand of this game
  function handLine(result) { return handWords(result, names, kindLabel, noEnder); }

  Object.assign(st, { names, rules, deck, key, draft, save, entry, preview, kindLabel, handLine, noEnder });
  rummyEntry(st);   // the hand entry: st.drawEntry, st.drawStale, st.buildBody...
  rummySubmit(st);  // its preview and confirmation: st.doPreview, st.clearEntry
  const { drawEntry, drawStale } = st;

  // ---- history, undo and redo, export -----------------------------------------------------------
  function drawHistory() {
    const hands = handsOf(st.g);
    const items = hands.slice().reverse().map(({ n, result, input, raw }) => {
      const spoiled = result.extra && result.extra.spoiled ? ` · spoiled ${result.extra.spoiled.map(s => SUIT_SYMBOL[s] || s).join(" ") || "none"}` : "";
      return h("li", { dataset: { hand: n }, class: st.changed && st.changed.has(n) ? "changed" : null },
        h("span", null, h("strong", null, `Hand ${n}`), ` ${handLine(result)}`, spoiled,
          raw.corrected ? h("small", { class: "muted" }, " (corrected)") : null,
          raw.by ? h("small", { class: "muted by" }, ` · ${raw.by}`) : null),
        h("button", { type: "button", class: "btn small", "aria-label": `Correct hand ${n}`, onclick: () => startCorrection(n, input, result) }, "Correct"));
    });
    history.replaceChildren(h("h2", null, "History"), items.length ? h("ol", { class: "history", reversed: true }, ...items) : h("p", { class: "muted" }, "No hands yet."));
  }

  function startCorrection(n, input, result) {
    st.clearEntry();
    draft.editing = n;
    draft.ender = input && input.ender !== undefined ? input.ender : result.ender;
    if (draft.ender === null || draft.ender === undefined) draft.ender = "void";
    draft.declared = input && input.declared ? input.declared.map(m => m.join(" ")).join(" / ") : "";
    draft.bigGin = !!(input && input.big_gin);
    draft.joker = !!(input && input.joker);
    draft.upcard = input && input.upcard ? String(input.upcard) : "";
    if (input && input.hands) { draft.mode = "cards"; input.hands.forEach((cs, s) => { draft.text[s] = cs.join(" "); }); }
    else if (input && input.deadwood) { draft.mode = "deadwood"; input.deadwood.forEach((d, s) => { draft.deadwood[s] = String(d); }); }
    else if (result.deadwood) { draft.mode = "deadwood"; result.deadwood.forEach((d, s) => { draft.deadwood[s] = String(d); }); }
    save();
    drawEntry();
    entry.scrollIntoView({ block: "start" });
  }

  // What an undo or a redo is about, in words: "hand 5 (Ana: gin · Ana +33)".
  function entryWords(what) {
    if (!what) return "";
    if (what.type === "hand_corrected") return `the correction of hand ${what.hand}`;
    const x = handsOf(st.g).find(y => y.n === what.hand && what.type === "hand");
    return x ? `hand ${what.hand} (${handLine(x.result)})` : (what.hand ? `hand ${what.hand}` : "the last entry");
  }

  // the version the undo question was asked at: a redraw of the same version (a live
  // message, a reload) keeps the question open; a new version closes it (its words changed)
  let asking = null;
  function drawTools(confirm) {
    if (confirm !== undefined) asking = confirm ? st.g.version : null;
    const confirming = asking !== null && asking === st.g.version;
    const m = matchOf(st.g);
    const undoErr = fieldError("undo-error");
    const act = (path, done) => undoOrRedo({ ctx, g: st.g, path, done, drawAll, reload,
      apply: async (res) => { if (res && res.game) st.g = res.game; else await reload(); },
      errEl: () => tools.querySelector("#undo-error") || undoErr });
    const redoWords = !st.g.redo ? "" : st.g.redo.type === "hand_corrected" ? `the correction of hand ${st.g.redo.hand}`
      : (st.g.redo.hand ? `hand ${st.g.redo.hand}` : "the last undone entry");
    const row = undoButtons({ g: st.g, confirming, undoWords: entryWords(st.g.undo), redoWords, ask: drawTools, act });
    tools.replaceChildren(h("h2", null, "Game"), h("div", { class: "actions wrap" }, ...row,
      h("a", { class: "btn", href: `/api/v1/games/${st.g.id}/export.json`, download: `gingo-${st.g.id}.json` }, "Export JSON"),
      h("a", { class: "btn", href: `/api/v1/games/${st.g.id}/export.csv`, download: `gingo-${st.g.id}.csv` }, "Export CSV"),
      h("button", { type: "button", class: "btn", onclick: () => window.print() }, "Print"),
      m.finished ? h("button", { type: "button", class: "btn primary", id: "rematch-btn", onclick: async () => {
        try { const res = await ctx.write("POST", `/api/v1/games/${st.g.id}/rematch`, {}); const ng = res.game || res; ctx.navigate(`#/game/${ng.id}`); }
        catch (e) { showError(tools.querySelector("#undo-error"), api.says(e)); }
      } }, "Rematch") : null), undoErr);
  }

  async function reload() {
    try { const res = await api.get(`/api/v1/games/${st.g.id}`); st.g = res.game || res; } catch { /* keep showing the last state */ }
  }

  function drawAll() { drawSheet(); drawEntry(); drawStale(); drawHistory(); drawTools(); }

  Object.assign(st, { drawSheet, drawHistory, drawTools, drawAll, reload });
  drawAll();
  return {
    async update(msgs) {
      // the whole game is fetched only when a live event changed it
      if (!ctx.touches(msgs, st.g)) return;
      const before = JSON.stringify([st.g.version, (st.g.hands || []).length, st.g.finished]);
      await reload();
      const after = JSON.stringify([st.g.version, (st.g.hands || []).length, st.g.finished]);
      drawSheet(); drawHistory(); drawTools(); drawStale();
      // Redraw the entry only when it is not being typed in (a started form keeps its hand number).
      if (before !== after && !entry.contains(document.activeElement)) { drawEntry(); drawStale(); }
    },
  };
}
