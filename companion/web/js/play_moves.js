// Dealt play: the moves offered under the hand. The legal actions come from the view as
// the API gives them; actions that differ only in what a joker stands for are one move
// with a choice (the player picks the card among the legal ones), and a move is played by
// sending the chosen action back exactly as given.

import { h, seg } from "./ui.js";
import { cardsOf, designationsOf, face, label } from "./play_cards.js";

function stripped(a) {
  const o = Object.assign({}, a);
  delete o.designations;
  if (o.meld && typeof o.meld === "object") { o.meld = Object.assign({}, o.meld); delete o.meld.designations; }
  return o;
}
export function moveKey(a) { return JSON.stringify(stripped(a)); }

// The legal actions as moves: {key, base, options: [actions that differ only in designations]}.
export function movesOf(legal) {
  const byKey = new Map();
  for (const a of legal || []) {
    const k = moveKey(a);
    if (!byKey.has(k)) byKey.set(k, { key: k, base: a, options: [] });
    byKey.get(k).options.push(a);
  }
  return [...byKey.values()];
}

const sameSet = (cards, chosen) => cards.length === chosen.size && cards.every(c => chosen.has(c));

// What the chosen cards can do: the moves without cards (draw, pass, the set-up...), the
// digs, the moves whose cards are exactly the chosen ones, and the melds and hits the
// chosen cards are part of (all of them when nothing is chosen: tap one to choose its cards).
export function sortMoves(moves, chosen) {
  const plain = moves.filter(m => m.base.type !== "take" && cardsOf(m.base).length === 0);
  const digs = moves.filter(m => m.base.type === "take");
  const exact = chosen.size ? moves.filter(m => cardsOf(m.base).length && sameSet(cardsOf(m.base), chosen)) : [];
  const combos = moves.filter(m => (m.base.type === "meld" || m.base.type === "hit")
    && !exact.includes(m) && [...chosen].every(c => cardsOf(m.base).includes(c)));
  return { plain, digs, exact, combos };
}

// The action a move plays now: the option the player picked (the first until then).
export function picked(move, picks) {
  const i = picks.get(move.key) || 0;
  return move.options[Math.min(i, move.options.length - 1)];
}

// The move whose chips the board shows: the meld or hit the chosen cards make.
export function previewOf(sorted, picks) {
  const m = sorted.exact.find(x => x.base.type === "meld" || x.base.type === "hit");
  return m ? picked(m, picks) : null;
}

// env: {view, deck, words (the game's rules: its gin_word, big_word), chosen (Set), picks (Map), act(action), choose(cards), redraw()}
// Laid out to stay short (the hand above must stay in view): the joker's choice with its
// move, one row of moves (the first two), and one row that scrolls sideways with the rest
// (digs, further moves, the melds and hits there are).
export function movesPanel(env) {
  const { view, deck, chosen, picks } = env;
  const sorted = sortMoves(movesOf(view.legal_actions), chosen);
  const btn = (a, cls = "btn play-move") => h("button", { type: "button", class: cls, onclick: () => env.act(a) }, label(a, view, deck, env.words));
  const row = [];     // the moves in reach: no card, or exactly the cards chosen
  const side = [];    // the row that scrolls sideways
  let jokerRow = null;
  for (const m of sorted.plain) row.push(btn(m.base));
  sorted.exact.forEach((m, n) => {
    const cls = `btn play-move${n === 0 ? " primary" : ""}`;
    if (m.options.length < 2 || jokerRow) { row.push(btn(picked(m, picks), cls)); return; }
    // a joker that may stand for more than one card: the choice, then the move, on one row
    const now = picks.get(m.key) || 0;
    const choices = m.options.map((a, i) => [i, Object.entries(designationsOf(a)).map(([, c]) => face(c, deck)).join(" ")]);
    const jokers = Object.keys(designationsOf(m.base)).join(" and ");
    const box = seg(choices, now, (i) => { picks.set(m.key, Number(i)); env.redraw(); }, `${jokers} stands for`);
    box.classList.add("play-joker");
    const a = picked(m, picks);
    const words = label(a, view, deck, env.words);
    const verb = words.split(" ")[0];
    jokerRow = h("div", { class: "play-joker-row", id: "play-joker" },
      h("span", { class: "play-joker-label", "aria-hidden": "true" }, `${jokers} is`), box,
      h("button", { type: "button", class: cls, onclick: () => env.act(a) }, verb,
        h("span", { class: "visually-hidden" }, words.slice(verb.length))));
  });
  side.push(...row.splice(2));
  // digs: one button per joker choice (rare)
  side.push(...sorted.digs.flatMap(m => m.options).map(a => btn(a, "btn play-suggest play-dig")));
  if (!sorted.exact.length) {
    // melds and hits there are (with the chosen cards): a tap chooses their cards
    const seen = new Set();
    for (const m of sorted.combos) {
      const cards = cardsOf(m.base);
      const k = m.base.type + (m.base.meld ?? "") + cards.join(" ");
      if (seen.has(k)) continue;
      seen.add(k);
      side.push(h("button", { type: "button", class: "btn play-suggest play-pick", onclick: () => env.choose(cards) },
        `${m.base.type === "hit" ? "Hit" : "Meld"} ${cards.map(c => face(c, deck)).join(" ")}`));
    }
  }
  const out = [];
  const legal = view.legal_actions || [];
  if (!row.length && !side.length && !jokerRow && legal.length) {
    out.push(h("p", { class: "muted play-hint" }, legal.some(a => a.type === "discard")
      ? (chosen.size ? "No move with these cards: tap to change them." : "Tap a card to discard it, or cards to meld.")
      : "Tap cards to choose a move."));
  }
  if (jokerRow) out.push(jokerRow);
  if (row.length) out.push(h("div", { class: "play-row" }, ...row));
  if (side.length) {
    const what = sorted.digs.length ? "digs and other moves" : chosen.size ? "plays with the chosen cards" : "plays you can make: a tap chooses their cards";
    out.push(h("div", { class: "play-suggests", role: "group", "aria-label": what }, ...side));
  }
  return { kids: out, preview: previewOf(sorted, picks) };
}

// While the board is awaited the moves wait too: held back, they are said in one line
// under the reason (as buttons, disabled, they pushed the hand under the moves at
// 390x844, and a sideways row of them had nothing to take the focus). A row that still
// has something to tap (a meld to choose cards for) stays. Changes `moves` (a
// movesPanel) in place.
export function holdMoves(moves) {
  const held = [];
  moves.kids = moves.kids.filter(kid => {
    const buttons = kid.querySelectorAll ? [...kid.querySelectorAll("button.play-move, button.play-dig")] : [];
    for (const b of buttons) {
      b.disabled = true;
      b.setAttribute("aria-describedby", "play-wait");
    }
    const movable = kid.querySelector && kid.querySelector("button:not(:disabled)");
    if (!buttons.length || movable) return true;
    held.push(...buttons.map(b => b.textContent));
    return false;
  });
  if (held.length) {
    const more = held.length - 1;
    moves.kids.unshift(h("p", { class: "muted play-held", id: "play-held" }, `Once the board agrees: ${held[0]}`
      + (more ? `, and ${more} more move${more > 1 ? "s" : ""}.` : ".")));
  }
}
