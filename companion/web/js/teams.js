// The Gin Rummy partnership (four players, two teams): the team sheet with its totals,
// and a hand entered as its two pair tables (table 1: seat 1 v seat 2, table 2: seat 3 v
// seat 4). Each table is entered as its cards (the card entry of the score sheet,
// js/hand_entry.js) or as both deadwood counts, with who dealt it and who ended it; the
// companion's preview shows each table's score and the team result before anything is
// written, and a past hand can be corrected the same way.

import * as api from "./api.js";
import { h, fieldError, showError, toast, loadDraft, saveDraft, clearDraft, seg, rulesOf } from "./ui.js";
import { deckFrom, parseHand, pretty, cardChip } from "./cards.js";
import { cardField, toggleCard, declaredField, parseDeclared, declaredText, tieChoice } from "./hand_entry.js";
import { breakdownText } from "./review.js";
import { flipForDeal } from "./flip.js";

const TABLES = [[0, 1], [2, 3]];
const TEAMS = [[0, 2], [1, 3]];
const KIND = { gin: "gin", big_gin: "big gin", knock: "knock", undercut: "undercut", void: "no game", showdown: "showdown" };
const FLIPS = ["flip_high_chooses", "flip_low_deals"];

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

const blankTable = () => ({ ender: "", mode: "deadwood", dw: ["", ""], text: ["", ""], declared: "", dealer: null });
const blank = () => ({ tables: TABLES.map(blankTable), active: null, editing: null });

// A stored draft, from this version or the one before (which kept only the deadwood).
function normal(d) {
  const out = Object.assign(blank(), d || {});
  out.tables = TABLES.map((_, t) => Object.assign(blankTable(), (d && d.tables && d.tables[t]) || {}));
  return out;
}

export function mountTeams(main, game, ctx) {
  let g = game;
  const names = namesOf(g);
  const rules = rulesOf(g);
  const deck = deckFrom(rules.deck);
  const sizes = rules.hand_sizes || { deal: 10, big: 11 };
  const key = `team.${g.id}`;
  const draft = normal(loadDraft(key, blank()));
  const save = () => saveDraft(key, draft);
  const target = (g.rules && g.rules.team_target) || 125;
  const flipRule = FLIPS.includes((g.options || {}).first_dealer) ? g.options.first_dealer : "flip_high_chooses";
  const flips = [null, null];  // each table's flip for the first deal keeps its rounds while the form is redrawn

  const title = h("h1", null, "Partnership", g.preset ? h("small", null, ` · ${g.preset_label || g.preset}`) : null);
  const teamsBox = h("div", { class: "team-totals", id: "team-totals" });
  const winner = h("p", { class: "winner", id: "team-winner", hidden: true });
  const sheet = h("div", { class: "sheet-wrap", id: "sheet" });
  const form = h("form", { class: "panel entry", id: "entry", novalidate: true });
  const preview = h("section", { class: "panel preview", id: "team-preview-box", hidden: true });
  const history = h("section", { class: "panel", id: "team-history" });
  const err = fieldError("team-error");
  const tableErrs = TABLES.map((_, t) => fieldError(`t${t}-error`));
  const handErrs = TABLES.map((_, t) => [0, 1].map(k => fieldError(`t${t}-hand-error-${k}`)));
  const decErrs = TABLES.map((_, t) => fieldError(`t${t}-declared-error`));
  const last = h("p", { class: "help", id: "team-last", "aria-live": "polite" });
  const tools = h("section", { class: "panel tools no-print", id: "tools" });
  main.append(h("section", { class: "panel" }, title,
    h("p", { class: "help" }, `Seats 1 and 3 play together against seats 2 and 4; first team to ${target}.`),
    teamsBox, winner, sheet, last), form, preview, history, tools);

  // "seat 2" in the companion's words is a player of this game: say the name.
  const said = (text) => String(text || "").replace(/\bseat (\d)\b/g, (m, n) => names[Number(n)] ?? m);

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

  // Who deals each table of the hand being entered: the one the flip or a correction
  // named, else the one the companion says the rules give.
  function dealerOf(t) {
    const d = draft.tables[t].dealer;
    if (typeof d === "number") return d;
    if (draft.editing !== null) {
      const hd = (g.hands || []).find(x => x.n === draft.editing);
      return hd && Array.isArray(hd.dealers) ? hd.dealers[t] : null;
    }
    return Array.isArray(g.table_dealers) ? g.table_dealers[t] : null;
  }

  function dealerLine(t) {
    const d = dealerOf(t);
    const kids = [];
    if (typeof d === "number" && names[d] !== undefined) kids.push(h("p", { class: "dealer-line", id: `t${t}-dealer` }, `${names[d]} deals`));
    if (draft.editing === null && !(g.hands || []).length) {
      const [a, b] = TABLES[t];
      flips[t] = flips[t] || flipForDeal({ names: [names[a], names[b]], prefix: `t${t}-flip`, rule: flipRule,
        label: `Flip for the deal at table ${t + 1}`,
        onDealer: (i) => { draft.tables[t].dealer = TABLES[t][i]; save(); drawForm(); } });
      kids.push(flips[t]);
    }
    return kids;
  }

  // The cards the other player at this table holds (each table plays its own deck).
  function takenAt(t, k) {
    const other = 1 - k;
    return new Map(parseHand(draft.tables[t].text[other] || "", deck).cards.map(c => [c, names[TABLES[t][other]]]));
  }

  function sizeOf(t, k) {
    const d = draft.tables[t];
    return String(d.ender) === String(TABLES[t][k]) && sizes.big ? [sizes.deal, sizes.big] : [sizes.deal];
  }

  function tap(t, k, card) {
    const d = draft.tables[t];
    const res = toggleCard(d.text[k], card, deck, takenAt(t, k));
    if (res.error) { showError(handErrs[t][k], res.error); return; }
    d.text[k] = res.text;
    // a hand complete: the grid moves on to the other player at this table when short
    if (res.added && res.cards.length === sizeOf(t, k)[0]) {
      const short = parseHand(d.text[1 - k] || "", deck).cards.length < sizeOf(t, 1 - k)[0];
      if (short) draft.active = `${t}-${1 - k}`;
    }
    save(); drawForm();
    const next = form.querySelector(`#table-${t} .seat-block.active`);
    if (next && draft.active !== `${t}-${k}`) next.scrollIntoView({ block: "start" });
  }

  function tableField(t) {
    const [a, b] = TABLES[t];
    const d = draft.tables[t];
    const pick = (val) => { d.ender = String(val); save(); showError(tableErrs[t], ""); drawForm(); };
    const kids = [h("legend", null, `Table ${t + 1}: ${names[a]} v ${names[b]}`), ...dealerLine(t),
      h("div", { class: "label", id: `t${t}-ender-label` }, "Who knocked or went gin?"),
      seg([[a, names[a]], [b, names[b]], ["none", "Nobody (stock ran out)"]], d.ender, pick, `Table ${t + 1}: who ended`),
      h("div", { class: "label" }, `Table ${t + 1}: how will you enter it?`),
      seg([["cards", "Enter cards"], ["deadwood", "Deadwood only"]], d.mode, (m) => { d.mode = m; if (m === "cards" && !draft.active) draft.active = `${t}-0`; save(); drawForm(); }, `Table ${t + 1}: entry mode`)];
    if (d.mode === "cards") {
      [a, b].forEach((s, k) => {
        const ended = String(d.ender) === String(s);
        const extra = ended ? declaredField({ id: `t${t}-declared`, who: names[s], value: d.declared, err: decErrs[t],
          onInput: (v) => { d.declared = v; save(); },
          help: "Leave empty to let the companion choose the arrangement with the least deadwood; the preview offers the others that tie." }) : null;
        kids.push(cardField({ deck, id: `t${t}-hand-${k}`, countId: `t${t}-count-${k}`, err: handErrs[t][k], who: names[s],
          label: `${names[s]}${ended ? " (ended)" : ""}`, gridLabel: `${names[s]}'s cards`, text: d.text[k], taken: takenAt(t, k),
          active: draft.active === `${t}-${k}`, seat: s, extra,
          onInput: (v) => { d.text[k] = v; save(); },
          onToggle: (c) => tap(t, k, c),
          onActivate: () => { draft.active = `${t}-${k}`; save(); drawForm(); } }));
      });
    } else {
      kids.push(h("div", { class: "dw-row" }, ...[a, b].map((s, k) => {
        const id = `t${t}-dw-${k}`;
        const inp = h("input", { id, type: "number", inputmode: "numeric", min: "0", max: "500", value: d.dw[k] });
        inp.addEventListener("input", () => { d.dw[k] = inp.value; save(); });
        return h("div", { class: "dw-field" }, h("label", { for: id }, `${names[s]}'s deadwood`), inp);
      })));
    }
    kids.push(tableErrs[t]);
    return h("fieldset", { class: "pair-table", id: `table-${t}` }, ...kids);
  }

  // The request body of the entry, checked on the phone: [body, null] or [null, table].
  function entryOf() {
    const tables = [];
    let bad = -1;
    const fail = (t, el, text) => { showError(el, text); if (bad < 0) bad = t; };
    for (let t = 0; t < 2; t++) {
      const d = draft.tables[t];
      const [a, b] = TABLES[t];
      showError(tableErrs[t], ""); showError(decErrs[t], ""); handErrs[t].forEach(e => showError(e, ""));
      if (d.ender === "") { fail(t, tableErrs[t], `Table ${t + 1}: say who knocked or went gin (or nobody).`); continue; }
      const row = { seats: [a, b], ender: d.ender === "none" ? null : Number(d.ender) };
      if (typeof d.dealer === "number") row.dealer = d.dealer;
      else if (draft.editing !== null) {
        const hd = (g.hands || []).find(x => x.n === draft.editing);
        const was = hd && hd.tables && hd.tables[t];
        if (was && typeof was.dealer === "number") row.dealer = was.dealer;
      }
      if (d.mode === "cards") {
        const hands = [0, 1].map(k => {
          const p = parseHand(d.text[k] || "", deck);
          const who = names[TABLES[t][k]];
          if (p.error) fail(t, handErrs[t][k], p.error);
          else if (!sizeOf(t, k).includes(p.cards.length)) {
            const want = sizeOf(t, k).length > 1 ? `${sizes.deal} cards (${sizes.big} for a big gin)` : `${sizes.deal} cards`;
            fail(t, handErrs[t][k], `${who}'s hand has ${p.cards.length} card${p.cards.length === 1 ? "" : "s"}; a hand is ${want} after the discard.`);
          }
          return p.cards;
        });
        row.hands = hands;
        if ((d.declared || "").trim() && row.ender !== null) {
          const k = TABLES[t].indexOf(row.ender);
          const dec = parseDeclared(d.declared, deck, hands[k], names[row.ender]);
          if (dec.error) fail(t, decErrs[t], dec.error); else row.declared = dec.groups;
        }
      } else {
        const dw = d.dw.map(x => (x === "" || x === null ? NaN : Number(x)));
        if (dw.some(x => !Number.isInteger(x) || x < 0 || x > 500)) { fail(t, tableErrs[t], `Table ${t + 1}: type ${names[a]}'s and ${names[b]}'s deadwood (whole numbers, 0 for gin).`); continue; }
        row.deadwood = dw;
      }
      tables.push(row);
    }
    return bad >= 0 ? [null, bad] : [{ ender: null, tables }, null];
  }

  function drawForm() {
    const editing = draft.editing;
    if (g.finished && editing === null) {
      form.hidden = false;
      form.replaceChildren(h("h2", null, "The match is over"),
        h("p", { class: "muted", id: "over-help" }, "A mistake? Tap Correct next to the hand below: the match is scored again, and if nobody has won any more it goes on."));
      return;
    }
    form.hidden = false;
    form.replaceChildren(h("h2", null, editing !== null ? `Correct hand ${editing}` : `Hand ${(g.hands || []).length + 1}`),
      h("p", { class: "help" }, "Enter both tables together: who ended each game, and each player's cards, or their deadwood after lay-offs. The preview shows the score before anything is saved."),
      tableField(0), tableField(1), err,
      h("div", { class: "actions" },
        h("button", { type: "submit", class: "btn primary", id: "team-preview" }, "Preview"),
        editing !== null ? h("button", { type: "button", class: "btn", id: "cancel-correction", onclick: () => { reset(); draw(); } }, "Cancel correction") : null,
        h("button", { type: "button", class: "btn", id: "team-clear", onclick: () => { const e = draft.editing; reset(); draft.editing = e; if (e !== null) startCorrection(e); else draw(); } }, "Clear")));
  }

  function reset() {
    clearDraft(key);
    Object.assign(draft, blank());
    preview.hidden = true;
  }

  function path(suffix = "") {
    const base = `/api/v1/games/${encodeURIComponent(g.id)}/hands`;
    return (draft.editing !== null ? `${base}/${draft.editing}` : base) + suffix;
  }

  // A refusal from the companion next to the table it is about (its details say which).
  function showServerError(e) {
    if (e instanceof api.NetError) { showError(err, "No connection to the companion: your entry is kept on this phone. Try again when the status shows online."); return; }
    const t = e.details && typeof e.details.table === "number" ? e.details.table - 1 : -1;
    const text = said(api.says(e));
    if (t >= 0 && t < 2) {
      showError(tableErrs[t], text);
      const f = form.querySelector(`#t${t}-error`);
      if (f) f.scrollIntoView({ block: "center" });
    } else showError(err, text);
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(err, "");
    const [body, bad] = entryOf();
    if (!body) {
      preview.hidden = true;
      const first = form.querySelector(`#table-${bad} .field-error:not([hidden])`);
      if (first) first.scrollIntoView({ block: "center" });
      const f = form.querySelector(`#table-${bad} button, #table-${bad} input`);
      if (f) f.focus({ preventScroll: true });
      return;
    }
    await doPreview(body);
  });

  async function doPreview(body) {
    try {
      const res = await api.post(path("/preview"), Object.assign({}, body, { expected_version: g.version }));
      showPreview(res, body);
    } catch (e) {
      preview.hidden = true;
      showServerError(e);
    }
  }

  // One table of the preview: who ended it, what it scores and why, each player's cards.
  function previewTable(t, r, b, ties, body) {
    const [a, c] = TABLES[t];
    const seats = [a, c];
    const kids = [h("h3", null, `Table ${t + 1}: ${names[a]} v ${names[c]}`)];
    const ender = r.ender !== null && r.ender !== undefined ? names[seats[r.ender]] : null;
    const won = r.winner !== null && r.winner !== undefined ? names[seats[r.winner]] : null;
    const why = breakdownText(b, [names[a], names[c]]);
    kids.push(h("p", { class: "verdict", id: `preview-table-${t}-verdict` },
      `${ender ? `${ender}: ${KIND[r.kind] || r.kind}.` : "Nobody ended it: no game."}`,
      won ? ` ${why || `${won} scores ${r.points[r.winner]}`}.` : " No score."));
    if (body.tables[t].hands) {
      seats.forEach((s, k) => {
        const melds = (r.melds && r.melds[k]) || [];
        const lay = (r.layoffs && r.layoffs[k]) || [];
        const dwc = (r.deadwood_cards && r.deadwood_cards[k]) || [];
        kids.push(h("div", { class: "seat-result", dataset: { seat: s } },
          h("h4", null, names[s], h("span", { class: "pts" }, ` ${Array.isArray(r.points) ? r.points[k] : 0} points`)),
          melds.length ? h("div", { class: "melds" }, ...melds.map(ml => h("span", { class: "meld" }, ...ml.map(cardChip)))) : null,
          lay.length ? h("p", null, "Laid off: ", ...lay.map(cardChip)) : null,
          h("p", null, `Deadwood ${r.deadwood ? r.deadwood[k] : "?"}`, dwc.length ? ": " : "", ...dwc.map(cardChip))));
      });
    } else if (Array.isArray(r.deadwood)) {
      kids.push(h("p", null, `Deadwood: ${names[a]} ${r.deadwood[0]}, ${names[c]} ${r.deadwood[1]}`));
    }
    if (Array.isArray(ties) && ties.length > 1 && typeof r.ender === "number") {
      kids.push(tieChoice({ ties, used: (r.melds || [])[r.ender], who: names[seats[r.ender]], id: `t${t}-ties`, btn: `t${t}-tie-`,
        onPick: (melds) => {
          draft.tables[t].declared = declaredText(melds);
          draft.tables[t].mode = "cards";
          save(); drawForm();
          const [nb] = entryOf();
          if (nb) doPreview(nb);
        } }));
    }
    return h("div", { class: "table-result", id: `preview-table-${t}` }, ...kids);
  }

  function showPreview(res, body) {
    const r = res.result || {};
    const tables = (r.extra && r.extra.tables) || [];
    const kids = [h("h2", { id: "preview-title", tabindex: -1 }, draft.editing !== null ? `Preview: hand ${draft.editing} corrected` : "Preview")];
    tables.forEach((x, t) => kids.push(previewTable(t, x, (res.table_breakdowns || [])[t], (res.table_arrangements || [])[t], body)));
    const tp = (r.extra && r.extra.team_points) || [0, 0];
    const team = r.winner !== null && r.winner !== undefined
      ? `${teamName(names, r.winner)} score ${r.points[r.winner]} (${tp[0]} against ${tp[1]}).`
      : `Nobody scores (${tp[0]} against ${tp[1]}).`;
    kids.push(h("p", { class: "verdict", id: "preview-team" }, team, " ", ...(r.notes || []).map(n => n.charAt(0).toUpperCase() + n.slice(1) + ".")));
    const after = res.game && res.game.team_scores;
    if (after) kids.push(h("p", { id: "preview-totals" }, `Then: Team A ${after[0]}, Team B ${after[1]}`,
      res.game.finished ? ` — ${teamName(names, res.game.winner)} win the match.` : "."));
    const confirmErr = fieldError("confirm-error");
    kids.push(confirmErr, h("div", { class: "actions" },
      h("button", { type: "button", class: "btn primary", id: "team-save", onclick: () => confirm(body, confirmErr) },
        draft.editing !== null ? "Save the correction" : "Save the hand"),
      h("button", { type: "button", class: "btn", id: "team-back", onclick: () => {
        preview.hidden = true; const b = document.getElementById("team-preview"); if (b) b.focus(); } }, "Back to the entry")));
    preview.replaceChildren(...kids);
    preview.hidden = false;
    preview.scrollIntoView({ block: "start" });
    document.getElementById("preview-title").focus({ preventScroll: true });
  }

  async function confirm(body, errEl) {
    const editing = draft.editing;
    try {
      const res = await ctx.write(editing !== null ? "PUT" : "POST", path(), Object.assign({}, body, { expected_version: g.version }));
      if (!res) return;  // kept offline
      g = res.game;
      const r = res.result || {};
      const pts = Array.isArray(r.points) ? r.points : [0, 0];
      last.textContent = editing !== null ? `Hand ${editing} corrected: Team A ${g.team_scores[0]}, Team B ${g.team_scores[1]}.`
        : `Hand ${(g.hands || []).length}: ${(r.notes || [])[0] || ""}. Team A ${pts[0]}, Team B ${pts[1]}.`;
      toast(editing !== null ? `Hand ${editing} corrected` : `Hand saved: Team A ${g.team_scores[0]}, Team B ${g.team_scores[1]}`);
      reset();
      draw();
      window.scrollTo(0, 0);
    } catch (e) {
      if (e instanceof api.ApiError && e.status === 409) {
        showError(errEl, `${api.says(e)} The sheet is updated: check it and preview again.`);
        await refresh(true);
        return;
      }
      preview.hidden = true;
      showServerError(e);
    }
  }

  // ---- past hands: each with who dealt, and a correction --------------------------------
  function drawHistory() {
    const hands = (g.hands || []).slice().reverse();
    const items = hands.map((hd) => {
      const tables = (hd.result && hd.result.extra && hd.result.extra.tables) || [];
      const dealt = Array.isArray(hd.dealers) ? ` · dealt by ${hd.dealers.map(s => names[s]).join(" and ")}` : "";
      return h("li", { dataset: { hand: hd.n } },
        h("span", null, h("strong", null, `Hand ${hd.n}`), " ", tables.map((x, t) => tableWords(names, t, x)).join(" · "), dealt,
          hd.corrected ? h("small", { class: "muted" }, " (corrected)") : null,
          hd.by ? h("small", { class: "muted by" }, ` · ${hd.by}`) : null),
        h("button", { type: "button", class: "btn small", "aria-label": `Correct hand ${hd.n}`, onclick: () => startCorrection(hd.n) }, "Correct"));
    });
    history.replaceChildren(h("h2", null, "Hands"), items.length ? h("ol", { class: "history", reversed: true }, ...items) : h("p", { class: "muted" }, "No hands yet."));
  }

  function startCorrection(n) {
    const hd = (g.hands || []).find(x => x.n === n);
    if (!hd) return;
    reset();
    draft.editing = n;
    (hd.tables || []).forEach((x, t) => {
      const d = draft.tables[t];
      d.ender = x.ender === null || x.ender === undefined ? "none" : String(x.ender);
      if (Array.isArray(x.hands)) { d.mode = "cards"; d.text = x.hands.map(cs => cs.join(" ")); d.declared = declaredText(x.declared); }
      else if (Array.isArray(x.deadwood)) { d.mode = "deadwood"; d.dw = x.deadwood.map(String); }
      if (typeof x.dealer === "number") d.dealer = x.dealer;
    });
    draft.active = draft.tables.some(d => d.mode === "cards") ? `${draft.tables.findIndex(d => d.mode === "cards")}-0` : null;
    save();
    draw();
    form.scrollIntoView({ block: "start" });
  }

  function drawTools() {
    const u = h("button", { type: "button", class: "btn", id: "undo-btn", disabled: !g.undo }, "Undo the last hand");
    u.addEventListener("click", async () => {
      try {
        const res = await ctx.write("POST", `/api/v1/games/${encodeURIComponent(g.id)}/undo`, { expected_version: g.version });
        if (res) { g = res.game; toast("Last entry undone"); draw(); }
      } catch (e) { toast(api.says(e), "error"); refresh(); }
    });
    tools.replaceChildren(h("div", { class: "actions" }, u,
      h("a", { class: "btn", href: `/api/v1/games/${encodeURIComponent(g.id)}/export.json`, download: `gingo-${g.id}.json` }, "Export (JSON)"),
      h("a", { class: "btn", href: "#/games" }, "All games")));
  }

  function draw() { drawTotals(); drawForm(); drawHistory(); drawTools(); }

  async function refresh(force = false) {
    try {
      const fresh = await api.get(`/api/v1/games/${encodeURIComponent(g.id)}`);
      if (fresh.version < g.version && !force) return;
      const moved = fresh.version !== g.version;
      g = fresh;
      drawTotals(); drawHistory(); drawTools();
      // the entry is redrawn only when it is not being typed in
      if (moved && !form.contains(document.activeElement)) drawForm();
    } catch { /* keep what is shown */ }
  }

  draw();
  return { update: (msgs) => { if (ctx.touches(msgs, g)) refresh(); } };
}
