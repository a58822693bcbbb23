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
//
// One screen, every target 44 px: the turn and who plays; the board, whose spaces are the
// cards (in the player's frame); a row of actions that send the cards chosen (Meld, Hit),
// end a turn that laid nothing down (Pass), or switch to choosing the captured cards
// (Go out), or end the stock (tapped twice).
export function playEntry(env) {
  const { g, names, deck, draft, save } = env;
  const sideOf = (seat) => (seat % 2 === 0 ? "1" : "2");
  const hand = g.state ? g.state.hand : g.hand;
  const dealer = g.state ? g.state.dealer : g.dealer;
  const turn = g.turn ?? (g.state ? g.state.turn : null);
  if (!["meld", "go_out"].includes(draft.tab)) draft.tab = "meld";
  const going = draft.tab === "go_out";
  const err = fieldError("cards-error");
  const say = (el, msg) => { showError(el, msg); if (msg) el.scrollIntoView({ block: "nearest" }); };
  const status = h("h1", { class: "turn-line", id: "gingo-status" },
    h("span", { class: "visually-hidden" }, `${env.label || "Gin-Go"}: `),
    h("span", null, `Hand ${hand ?? 1} · `, h("span", { id: "gingo-dealer" }, `${names[dealer] ?? "?"} dealt`)),
    turn !== null && turn !== undefined ? h("strong", { id: "gingo-turn" }, `${names[turn]} to play`) : null);
  const who = seg(names.map((n, s) => [s, s === turn ? `${n} ▸` : n]), draft.seat, (s) => {
    draft.seat = Number(s); save(); env.redraw();
  }, "who plays");
  who.classList.add("who");
  const top = h("div", { class: "turn-row" + (names.length > 2 ? " many" : "") }, status, who);

  // the cards chosen so far: the play's cards, or the captured cards of one other player
  const others = names.map((_, s) => s).filter(s => s !== draft.seat);
  if (going && !others.includes(Number(draft.capSeat))) draft.capSeat = others[0];
  const listOf = (s) => parseHand(going ? (draft.captured[s] || "") : draft.cards, deck).cards;
  const setList = (s, cards) => { if (going) draft.captured[s] = cards.join(" "); else draft.cards = cards.join(" "); save(); };
  const chosen = () => going ? others.flatMap(s => listOf(s)) : listOf(null);
  const side = sideOf(draft.seat);
  const frame = (env.frames && env.frames[side]) || {};
  // every chosen card put back (the play's, or the captured cards of every other player)
  const clearChosen = () => {
    if (going) { draft.captured = {}; draft.jokers = {}; } else { draft.cards = ""; draft.desig = {}; }
    save(); showError(err, ""); showError(env.formErr, "");
    armed = false;
    refresh();
  };
  const toggle = (card) => {
    const s = going ? Number(draft.capSeat) : null;
    if (going) for (const o of others) if (o !== s && listOf(o).includes(card)) setList(o, listOf(o).filter(c => c !== card));
    const now = listOf(s);
    setList(s, now.includes(card) ? now.filter(c => c !== card) : now.concat([card]));
    showError(err, ""); showError(env.formErr, "");
    armed = false;
    refresh();
  };
  // the joker key: none -> JK1 -> both -> none
  const jokerTap = () => {
    const s = going ? Number(draft.capSeat) : null;
    const now = listOf(s);
    const have = deck.extra.filter(j => now.includes(j));
    const next = have.length === deck.extra.length ? [] : deck.extra.slice(0, have.length + 1);
    setList(s, now.filter(c => !deck.extra.includes(c)).concat(next));
    refresh();
  };

  const pickBox = h("div", { id: "gingo-pick", class: "pick-box" });
  const actBox = h("div", { class: "act-row", role: "group", "aria-label": "action" });
  const extraBox = h("div", { class: "extra-box" });
  const chosenLine = h("p", { class: "chosen", id: "chosen-cards" });  // each card button says pressed or not
  const kids = [top];
  if (going && others.length > 1) {
    kids.push(seg(others.map(s => [s, names[s]]), draft.capSeat, (s) => { draft.capSeat = Number(s); save(); env.redraw(); }, "cards held by"));
  }
  const clearBtn = h("button", { type: "button", class: "btn small", id: "clear-chosen", hidden: true,
    "aria-label": going ? "Clear the captured cards" : "Clear the chosen cards", onclick: () => clearChosen() }, "Clear");
  kids.push(pickBox, actBox, h("div", { class: "chosen-row" }, chosenLine, clearBtn), err, env.formErr, extraBox, env.forfeitBox);
  let armed = false;   // "Stock" asks once more

  // typed entry, folded away (a laptop, or a card the board cannot show)
  const typed = h("details", { class: "typed no-print", open: draft.typed ? true : null });
  typed.addEventListener("toggle", () => { draft.typed = typed.open; save(); });
  if (going) {
    for (const s of others) {
      const e = fieldError(`captured-error-${s}`);
      typed.append(...env.cardsField(`captured-${s}`, `${names[s]} still holds`, draft.captured[s] || "", (v) => { draft.captured[s] = v; save(); refresh(); }, e, false));
    }
  } else {
    typed.append(...env.cardsField("action-cards", "Cards of the play", draft.cards, (v) => { draft.cards = v; save(); refresh(); }, err, false));
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
    const nj = deck.extra.filter(j => cards.includes(j)).length;
    const joker = deck.extra.length ? h("button", { type: "button", class: "btn joker", id: "joker-key", "aria-pressed": nj ? "true" : "false",
      "aria-label": nj ? `jokers chosen: ${nj}` : "add a joker", onclick: jokerTap }, nj ? `🃏${nj}` : "🃏") : null;
    const act = (value, text, attrs, fn) => h("button", Object.assign({ type: "button", class: "btn", dataset: { value }, onclick: fn }, attrs), text);
    if (going) {
      actBox.replaceChildren(...[joker,
        act("meld", "Back", { "aria-label": "back to melds and hits" }, () => { draft.tab = "meld"; save(); env.redraw(); }),
        act("go_out", `${names[draft.seat]} goes out`, { id: "send-action", class: "btn primary" }, sendGoOut)].filter(Boolean));
    } else {
      actBox.replaceChildren(...[joker,
        act("meld", "Meld", { id: "send-meld", class: "btn primary" }, () => sendPlay("meld")),
        act("hit", "Hit", { id: "send-hit" }, () => sendPlay("hit")),
        act("pass", "Pass", { id: "send-pass", "aria-label": `Pass: ${names[draft.seat]} drew and discarded, no meld` }, sendPass),
        act("go_out", "Go out", null, () => { draft.tab = "go_out"; save(); env.redraw(); }),
        act("stock", armed ? "Stock out?" : "Stock", { id: "stock-btn", "aria-label": armed ? "Stock out? Tap again: the stock ran out" : "Stock: the stock ran out", dataset: { value: "stock", armed: armed ? "1" : "0" } }, async () => {
          if (!armed) { armed = true; refresh(); return; }
          armed = false;
          if (await env.send({ type: "stock_exhausted" })) env.done();
        })].filter(Boolean));
    }
    chosenLine.textContent = cards.length ? `${going ? "Captured" : "Chosen"}: ${cards.map(pretty).join(" ")}` : "";
    clearBtn.hidden = !cards.length;
    // what the chosen cards need besides: a joker's card, the meld hit, a captured joker's place
    const extra = [];
    if (!going) {
      extra.push(...env.desigFields(cards, err));
      const melds = (g.melds || []).filter(m => !m.dead);
      if (melds.length) {
        const fits = meldsFitting(melds, cards);
        if (fits.length === 1 && !draft.meldPicked) draft.meld = String(fits[0].id);
        const sel = h("select", { id: "hit-meld", "aria-label": "meld to hit" }, h("option", { value: "" }, "Hit onto meld…"),
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
  }

  async function sendPlay(type) {
    showError(err, ""); showError(env.formErr, "");
    const p = parseHand(draft.cards, deck);
    if (p.error) { say(err, p.error); return; }
    if (type === "meld" && p.cards.length < 3) { say(err, `A meld needs 3 or more cards; ${p.cards.length} chosen.`); return; }
    if (type === "hit" && !p.cards.length) { say(err, "Choose the cards laid off."); return; }
    if (type === "hit" && !draft.meld) { say(err, "Choose the meld the cards go onto (under the board)."); return; }
    const desig = env.readDesig(p.cards, err);
    if (!desig) { err.scrollIntoView({ block: "nearest" }); return; }
    const action = { type, seat: draft.seat, cards: p.cards, designations: desig };
    if (type === "hit") action.meld = Number(draft.meld);
    const clear = () => { draft.cards = ""; draft.desig = {}; draft.meld = null; draft.meldPicked = false; save(); };
    if (await env.send(action, err, clear)) { clear(); env.done(); }
    else if (!err.hidden) {
      // refused: the error names the cards; they are not kept chosen (nor across a reload)
      clear();
      refresh();
      err.scrollIntoView({ block: "nearest" });
    }
  }

  // A turn with no meld or hit: the turn moves on, on every phone and the LEDs.
  async function sendPass() {
    showError(err, ""); showError(env.formErr, "");
    if (await env.send({ type: "pass", seat: draft.seat }, err)) { draft.cards = ""; draft.desig = {}; save(); env.done(); }
    else if (!err.hidden) err.scrollIntoView({ block: "nearest" });
  }

  async function sendGoOut() {
    showError(env.formErr, "");
    const captured = {};
    const seen = new Set();
    for (const s of others) {
      const p = parseHand(draft.captured[s] || "", deck);
      const e = (typed.open && document.getElementById(`captured-error-${s}`)) || err;
      if (p.error) { say(e, `${names[s]}: ${p.error}`); return; }
      for (const c of p.cards) { if (seen.has(c)) { say(e, `${pretty(c)} is entered for two players`); return; } seen.add(c); }
      if (p.cards.length) captured[String(s)] = p.cards;
      showError(e, "");
    }
    const jokers = {};
    for (const [j, v] of Object.entries(draft.jokers)) {
      if (!seen.has(j) || !v.meld) continue;
      try { jokers[j] = { meld: Number(v.meld), as: parseCard(v.as, naturalsOf(deck)) }; }
      catch (e) { say(env.formErr, `${j}: ${e.message}`); return; }
    }
    const clear = () => { draft.captured = {}; draft.jokers = {}; draft.tab = "meld"; save(); };
    if (await env.send({ type: "go_out", seat: draft.seat, captured, jokers }, null, clear)) { clear(); env.done(); }
    else if (!env.formErr.hidden) env.formErr.scrollIntoView({ block: "nearest" });
  }

  refresh();
  env.onBoard(refresh);
  return kids;
}
