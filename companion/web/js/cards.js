// Card names as the engine writes them ("AS", "10H", "JK1", "R5", "W1"), the decks of
// each variant, a forgiving parser for typed cards, and the card grid (suits as columns,
// ranks as rows: the shape of the Gin-Go board).

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SYMBOL_SUIT = { "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C" };
const RANK_WORD = { A: 1, T: 10, J: 11, Q: 12, K: 13 };

// A deck as the companion describes it (a game's rules.deck, or a variant's deck in
// /api/v1/variants): its columns (suits or colours), rank rows and extra cards.
export function deckFrom(d) {
  if (!d) d = { name: "standard", size: 52, columns: "SHDC".split("").map(s => ({ key: s, label: SUIT_SYMBOL[s] })), ranks: RANKS, extra: [], extra_label: "", name_order: "rank_suit" };
  const colourFirst = d.name_order === "colour_rank";
  return {
    kind: d.name, size: d.size,
    columns: d.columns.map(c => ({ key: c.key, label: c.label, cls: (colourFirst ? "col-" : "suit-") + c.key })),
    rowLabel: r => d.ranks[r - 1],
    name: (col, r) => colourFirst ? col + r : d.ranks[r - 1] + col,
    extra: d.extra || [],
    extraLabel: d.extra_label || "",
  };
}

// The same deck without its extra cards (what a joker may stand for).
export function naturalsOf(deck) { return Object.assign({}, deck, { kind: "standard", extra: [], extraLabel: "" }); }

function parseRank(t) {
  if (t in RANK_WORD) return RANK_WORD[t];
  if (/^\d{1,2}$/.test(t)) {
    const n = Number(t);
    if (n >= 1 && n <= 13) return n;
  }
  return null;
}

// One typed card -> the engine's name, or an Error naming the bad token.
export function parseCard(raw, deck) {
  const t = String(raw).trim().toUpperCase();
  if (!t) throw new Error("empty card");
  // a deck with jokers (Gin-Go's JK1, JK2): "JK", "joker" or 🃏 is the first of them
  if (deck.extraLabel === "joker" && deck.extra.length && /^(JK|JOKER|🃏)$/.test(t)) return deck.extra[0];
  if (deck.extraLabel === "joker" && deck.extra.includes(t)) return t;
  if (deck.kind === "rumski") {
    let m = /^W([1-5])?$/.exec(t);
    if (m) return "W" + (m[1] || "1");
    m = /^([RBGYP])(\d{1,2})$/.exec(t);
    if (m && parseRank(m[2])) return m[1] + parseRank(m[2]);
    throw new Error(`“${raw}” is not a Ginski card (colour R B G Y P then 1-13, or W for a wild)`);
  }
  let suit = null, rank = null;
  const first = [...t][0], last = [...t].slice(-1)[0];
  if (SYMBOL_SUIT[last] || "SHDC".includes(last)) {
    suit = SYMBOL_SUIT[last] || last;
    rank = parseRank([...t].slice(0, -1).join(""));
  }
  if (rank === null && (SYMBOL_SUIT[first] || "SHDC".includes(first))) {
    suit = SYMBOL_SUIT[first] || first;
    rank = parseRank([...t].slice(1).join(""));
  }
  if (rank === null || !suit) {
    throw new Error(`“${raw}” is not a card (rank then suit, like AS, 10H, QD)`);
  }
  return RANKS[rank - 1] + suit;
}

// Parses a typed hand. Returns {cards, error}; a card typed twice is an error.
export function parseHand(text, deck) {
  const tokens = String(text).split(/[\s,;]+/).filter(Boolean);
  const cards = [];
  for (const tok of tokens) {
    let c;
    try { c = parseCard(tok, deck); } catch (e) { return { cards, error: e.message }; }
    if (cards.includes(c)) return { cards, error: `${pretty(c)} is entered twice` };
    cards.push(c);
  }
  return { cards, error: null };
}

export function pretty(name) {
  const m = /^(10|[A2-9JQK])([SHDC])$/.exec(name);
  if (m) return m[1] + SUIT_SYMBOL[m[2]];
  return name;
}

export function suitClass(name) {
  const m = /([SHDC])$/.exec(name);
  if (m && /^(10|[A2-9JQK])[SHDC]$/.test(name)) return "suit-" + m[1];
  const r = /^([RBGYP])\d/.exec(name);
  if (r) return "col-" + r[1];
  return "wild";
}

export function cardChip(name) {
  const s = document.createElement("span");
  s.className = "card " + suitClass(name);
  s.textContent = pretty(name);
  return s;
}

// The grid. `selected` is the list of this hand's cards; `taken` maps a card to the
// name of whoever else holds it. onToggle(card) is called on a tap.
export function cardGrid({ deck, selected, taken, onToggle, label }) {
  const grid = document.createElement("div");
  grid.className = "card-grid";
  grid.style.setProperty("--cols", deck.columns.length);
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", label || "cards");
  const corner = document.createElement("span");
  corner.className = "grid-head";
  grid.appendChild(corner);
  for (const col of deck.columns) {
    const h = document.createElement("span");
    h.className = "grid-head " + col.cls;
    h.textContent = col.label;
    grid.appendChild(h);
  }
  // spoken: the name a screen reader says, which holds the text shown (a colour card shows
  // its number in its colour's column: "red 1", never "R1", which does not say "1")
  const cell = (name, text, spoken) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "cell " + suitClass(name);
    b.dataset.card = name;
    b.textContent = text;
    b.setAttribute("aria-label", spoken || pretty(name));
    const on = selected.includes(name);
    b.setAttribute("aria-pressed", on ? "true" : "false");
    if (taken && taken.has(name) && !on) {
      b.classList.add("taken");
      b.title = `held by ${taken.get(name)}`;
    }
    b.addEventListener("click", () => onToggle(name));
    return b;
  };
  for (let r = 1; r <= 13; r++) {
    const lab = document.createElement("span");
    lab.className = "row-head";
    lab.textContent = deck.rowLabel(r);
    grid.appendChild(lab);
    for (const col of deck.columns) {
      const colour = !SUIT_SYMBOL[col.key];  // Ginski's colours: the column says the colour, the cell its number
      grid.appendChild(cell(deck.name(col.key, r), deck.rowLabel(r), colour ? `${col.label} ${deck.rowLabel(r)}` : null));
    }
  }
  if (deck.extra.length) {
    const lab = document.createElement("span");
    lab.className = "row-head";
    lab.textContent = deck.extraLabel;
    grid.appendChild(lab);
    const wrap = document.createElement("div");
    wrap.className = "extra-row";
    wrap.style.gridColumn = `span ${deck.columns.length}`;
    for (const w of deck.extra) wrap.appendChild(cell(w, w));
    grid.appendChild(wrap);
  }
  return grid;
}
