// Gin-Go during a hand: who plays (the turn by default), what they did, and the cards
// chosen on a compact board drawn in the player's own frame: each card is the space its
// chip goes on, so the board stays in view while a play is entered. Typing the cards
// is still there, folded away.

import { h, showError, fieldError, seg } from "./ui.js";
import { parseHand, parseCard, pretty, naturalsOf } from "./cards.js";
import { boardView } from "./board.js";

const RANK_NO = { A: 1, J: 11, Q: 12, K: 13 };
const rankOf = (c) => { const r = c.slice(0, -1); return RANK_NO[r] || Number(r); };

// The melds on the table the natural cards could go onto (a set of their rank, or a run
// of their suit they extend without a gap, the ace low or high): a guess the engine checks.
export function meldsFitting(melds, cards) {
  const nat = cards.filter(c => /^(10|[A2-9JQK])[SHDC]$/.test(c));
  if (!nat.length) return [];
  return melds.filter(m => {
    if (m.dead) return false;
    const shown = (m.stands_for || m.cards || []).filter(c => /^(10|[A2-9JQK])[SHDC]$/.test(c));
    if (!shown.length) return false;
    if (m.kind === "set") return nat.every(c => rankOf(c) === rankOf(shown[0]));
    const suit = shown[0].slice(-1);
    if (!nat.every(c => c.slice(-1) === suit)) return false;
    const all = [...shown, ...nat];
    return [false, true].some(high => {
      const ranks = all.map(c => (high && rankOf(c) === 1 ? 14 : rankOf(c))).sort((a, b) => a - b);
      return new Set(ranks).size === ranks.length && ranks[ranks.length - 1] - ranks[0] === ranks.length - 1;
    });
  });
}

// env: {g, names, sides, deck, draft, save, boardNow() (the view to draw chips from),
// frames, send, formErr, forfeitBox, cardsField, desigFields, readDesig, redraw, done, onBoard}
export function playEntry(env) {
  const { g, names, deck, draft, save } = env;
  const sideOf = (seat) => (seat % 2 === 0 ? "1" : "2");
  const hand = g.state ? g.state.hand : g.hand;
  const dealer = g.state ? g.state.dealer : g.dealer;
  const turn = g.turn ?? (g.state ? g.state.turn : null);
  const err = fieldError("cards-error");
  const status = h("h1", { class: "turn-line", id: "gingo-status", "aria-live": "polite" },
    h("span", { class: "visually-hidden" }, `${env.label || "Gin-Go"}: `),
    `Hand ${hand ?? 1} · `, h("span", { id: "gingo-dealer" }, `${names[dealer] ?? "?"} dealt`),
    turn !== null && turn !== undefined ? [" · ", h("strong", { id: "gingo-turn" }, `${names[turn]} to play`)] : null);
  const who = seg(names.map((n, s) => [s, s === turn ? `${n} ▸` : n]), draft.seat, (s) => {
    draft.seat = Number(s); save(); env.redraw();
  }, "who plays");
  who.classList.add("who");
  const tabs = seg([["meld", "Meld"], ["hit", "Hit"], ["go_out", "Go out"], ["stock", "Stock out"]], draft.tab, (t) => {
    draft.tab = t; save(); env.redraw();
  }, "action");
  tabs.classList.add("tabs");
  const kids = [status, who, tabs];
  if (draft.tab === "stock") {
    kids.push(h("p", { class: "help" }, "The stock is empty: the melds on the table become the new stock (their chips stay)."), env.formErr,
      h("button", { type: "button", class: "btn primary", id: "send-action", onclick: async () => {
        if (await env.send({ type: "stock_exhausted" })) env.done();
      } }, "Stock ran out"));
    return kids;
  }

  // the cards chosen so far: the play's cards, or the captured cards of one other player
  const going = draft.tab === "go_out";
  const others = names.map((_, s) => s).filter(s => s !== draft.seat);
  if (going && !others.includes(Number(draft.capSeat))) draft.capSeat = others[0];
  const listOf = (s) => parseHand(going ? (draft.captured[s] || "") : draft.cards, deck).cards;
  const setList = (s, cards) => { if (going) draft.captured[s] = cards.join(" "); else draft.cards = cards.join(" "); save(); };
  const chosen = () => going ? others.flatMap(s => listOf(s)) : listOf(null);
  const side = sideOf(draft.seat);
  const frame = (env.frames && env.frames[side]) || {};
  const toggle = (card) => {
    const s = going ? Number(draft.capSeat) : null;
    if (going) for (const o of others) if (o !== s && listOf(o).includes(card)) setList(o, listOf(o).filter(c => c !== card));
    const now = listOf(s);
    setList(s, now.includes(card) ? now.filter(c => c !== card) : now.concat([card]));
    showError(err, ""); showError(env.formErr, "");
    refresh();
  };

  const pickBox = h("div", { id: "gingo-pick", class: "pick-box" });
  const extraBox = h("div", { class: "extra-box" });
  const sendBox = h("div", { class: "send-row" });
  if (going && others.length > 1) {
    kids.push(seg(others.map(s => [s, names[s]]), draft.capSeat, (s) => { draft.capSeat = Number(s); save(); env.redraw(); }, "cards held by"));
  }
  kids.push(pickBox, sendBox, extraBox, err, env.formErr, env.forfeitBox);

  // typed entry, folded away (a laptop, or a card the board cannot show)
  const typed = h("details", { class: "typed no-print", open: draft.typed ? true : null });
  typed.addEventListener("toggle", () => { draft.typed = typed.open; save(); });
  if (going) {
    for (const s of others) {
      const e = fieldError(`captured-error-${s}`);
      typed.append(...env.cardsField(`captured-${s}`, `${names[s]} still holds`, draft.captured[s] || "", (v) => { draft.captured[s] = v; save(); refresh(); }, e, false));
    }
  } else {
    typed.append(...env.cardsField("action-cards", draft.tab === "meld" ? "Cards of the meld" : "Cards laid off", draft.cards, (v) => { draft.cards = v; save(); refresh(); }, err, false));
  }
  typed.prepend(h("summary", null, "Type the cards instead"));
  kids.push(typed);

  function refresh() {
    const cards = chosen();
    // the typed fields follow the taps (unless the player is typing in one)
    for (const s of going ? others : [null]) {
      const inp = document.getElementById(going ? `captured-${s}` : "action-cards");
      const text = going ? (draft.captured[s] || "") : draft.cards;
      if (inp && inp !== document.activeElement && parseHand(inp.value, deck).cards.join(" ") !== listOf(s).join(" ")) inp.value = text;
    }
    const selected = new Set(cards.map(c => frame[c]).filter(x => x !== undefined));
    pickBox.replaceChildren(boardView(env.boardNow(), { names: env.sides, frames: env.frames, compact: true,
      pick: { side, selected, onPick: (space) => { const card = Object.keys(frame).find(c => frame[c] === space); if (card) toggle(card); } } }));
    const jokers = deck.extra.map(j => h("button", { type: "button", class: "cell wild joker", dataset: { card: j },
      "aria-pressed": cards.includes(j) ? "true" : "false", "aria-label": `joker ${j.slice(2)}`, title: j, onclick: () => toggle(j) }, "🃏"));
    // what the chosen cards need besides: a joker's card, the meld hit, a captured joker's place
    const extra = [];
    if (!going) {
      extra.push(...env.desigFields(cards, err));
      if (draft.tab === "hit") {
        const melds = (g.melds || []).filter(m => !m.dead);
        const fits = meldsFitting(melds, cards);
        if (fits.length === 1 && !draft.meldPicked) draft.meld = String(fits[0].id);
        const sel = h("select", { id: "hit-meld", "aria-label": "onto meld" }, h("option", { value: "" }, melds.length ? "Onto meld…" : "No melds on the table yet"),
          ...melds.map(m => h("option", { value: m.id, selected: String(m.id) === String(draft.meld) },
            `#${m.id} ${(m.stands_for || m.cards).map(pretty).join(" ")} (${names[m.seat] ?? ""})`)));
        sel.addEventListener("change", () => { draft.meld = sel.value; draft.meldPicked = !!sel.value; save(); });
        extra.push(sel);
      }
    } else {
      for (const j of cards.filter(c => c.startsWith("JK"))) {
        const jd = draft.jokers[j] || { meld: "", as: "" };
        const sel = h("select", { id: `joker-meld-${j}` }, h("option", { value: "" }, "dead (no meld)"),
          ...(g.melds || []).map(m => h("option", { value: m.id, selected: String(m.id) === String(jd.meld) }, `#${m.id} ${(m.stands_for || m.cards).map(pretty).join(" ")}`)));
        const as = h("input", { id: `joker-as-${j}`, value: jd.as, placeholder: "stands for, e.g. 6S" });
        const upd = () => { draft.jokers[j] = { meld: sel.value, as: as.value }; save(); };
        sel.addEventListener("change", upd); as.addEventListener("input", upd);
        extra.push(h("div", { class: "seat-block" }, h("label", { for: `joker-meld-${j}` }, `Captured ${j} goes onto`), sel, h("label", { for: `joker-as-${j}` }, "as"), as));
      }
    }
    extraBox.replaceChildren(...extra);
    const word = { meld: "Meld", hit: "Hit", go_out: `${names[draft.seat]} goes out` }[draft.tab];
    const shown = cards.length ? cards.map(pretty).join(" ") : (going ? "no cards held" : "tap cards");
    sendBox.replaceChildren(...jokers,
      h("span", { class: "chosen", id: "chosen-cards", "aria-live": "polite" }, shown),
      h("button", { type: "button", class: "btn primary", id: "send-action", onclick: going ? sendGoOut : sendPlay }, word));
  }

  async function sendPlay() {
    showError(err, ""); showError(env.formErr, "");
    const p = parseHand(draft.cards, deck);
    if (p.error) { showError(err, p.error); return; }
    if (draft.tab === "meld" && p.cards.length < 3) { showError(err, `A meld needs 3 or more cards; ${p.cards.length} chosen.`); return; }
    if (draft.tab === "hit" && !p.cards.length) { showError(err, "Choose the cards laid off."); return; }
    if (draft.tab === "hit" && !draft.meld) { showError(err, "Choose the meld the cards go onto."); return; }
    const desig = env.readDesig(p.cards, err);
    if (!desig) return;
    const action = { type: draft.tab, seat: draft.seat, cards: p.cards, designations: desig };
    if (draft.tab === "hit") action.meld = Number(draft.meld);
    const clear = () => { draft.cards = ""; draft.desig = {}; draft.meld = null; draft.meldPicked = false; save(); };
    if (await env.send(action, err, clear)) { clear(); env.done(); }
  }

  async function sendGoOut() {
    showError(env.formErr, "");
    const captured = {};
    const seen = new Set();
    for (const s of others) {
      const p = parseHand(draft.captured[s] || "", deck);
      const e = (typed.open && document.getElementById(`captured-error-${s}`)) || err;
      if (p.error) { showError(e, `${names[s]}: ${p.error}`); return; }
      for (const c of p.cards) { if (seen.has(c)) { showError(e, `${pretty(c)} is entered for two players`); return; } seen.add(c); }
      if (p.cards.length) captured[String(s)] = p.cards;
      showError(e, "");
    }
    const jokers = {};
    for (const [j, v] of Object.entries(draft.jokers)) {
      if (!seen.has(j) || !v.meld) continue;
      try { jokers[j] = { meld: Number(v.meld), as: parseCard(v.as, naturalsOf(deck)) }; }
      catch (e) { showError(env.formErr, `${j}: ${e.message}`); return; }
    }
    const clear = () => { draft.captured = {}; draft.jokers = {}; draft.tab = "meld"; save(); };
    if (await env.send({ type: "go_out", seat: draft.seat, captured, jokers }, null, clear)) { clear(); env.done(); }
  }

  refresh();
  env.onBoard(refresh);
  return kids;
}
