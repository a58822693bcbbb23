// Dealt play: the cards of a seat and the words for each legal move (js/play.js draws them).
// A card is named as the API names it ("10H", "JK1"; Color Gin's colour_rank names "R7");
// the deck's columns are its suits (or colours), the jokers a column of their own.

export const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function split(name, deck) {
  if ((deck.extra || []).includes(name)) return { col: "*", rank: name };
  if (deck.name_order === "colour_rank") return { col: name[0], rank: name.slice(1) };
  return { col: name.slice(-1), rank: name.slice(0, -1) };
}

export function face(name, deck) {
  const { col, rank } = split(name, deck);
  if (col === "*") return name;
  return (SUIT[col] ? rank + SUIT[col] : name);
}

export function red(name, deck) { const c = split(name, deck).col; return c === "H" || c === "D"; }

export function sortCards(cards, deck) {
  const cols = deck.columns.map(c => c.key);
  const key = (n) => { const s = split(n, deck); return [s.col === "*" ? 99 : cols.indexOf(s.col), deck.ranks.indexOf(s.rank)]; };
  return [...cards].sort((a, b) => { const x = key(a), y = key(b); return x[0] - y[0] || x[1] - y[1]; });
}

// The cards of the hand a move uses (a dig's card comes from the pile: none of the hand's).
export function cardsOf(a) {
  if (a.type === "take") return [];
  if (a.card) return [a.card];
  if (a.cards) return a.cards;
  return [];
}

// A joker's designation: which card it stands for ({"JK1": "8C"}), in a meld, a hit or a dig.
export function designationsOf(a) {
  return a.designations || (a.meld && typeof a.meld === "object" && a.meld.designations) || {};
}

// What the cards of a meld or hit stand for (each joker as the card it was given).
export function standsFor(a) {
  const des = designationsOf(a);
  const cards = a.type === "take" ? ((a.meld && a.meld.cards) || []) : (a.cards || []);
  return cards.map(c => des[c] || c);
}

export function desigText(a, deck) {
  return Object.entries(designationsOf(a)).map(([j, c]) => `${j} as ${face(c, deck)}`).join(", ");
}

// words: the game's own words (its rules' gin_word and big_word: Ginski's "Ginski")
export function label(a, view, deck, words = {}) {
  const f = (c) => face(c, deck);
  const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);
  const pub = view.public || {};
  const jokers = Object.keys(designationsOf(a)).length ? ` (${desigText(a, deck)})` : "";
  const meldName = (id) => {
    const m = ((pub.table && pub.table.melds) || []).find(x => x.id === id);
    return m ? (m.stands_for || m.cards).map(f).join(" ") : `meld ${id}`;
  };
  switch (a.type) {
    case "pass": return pub.phase === "rescue" ? "Give up the last discard" : "Pass";
    case "draw":
      if (a.source === "stock" || pub.table) return "Draw from the stock";
      if (a.source === "discard") return pub.phase === "upcard" ? `Take the upcard ${f(pub.discard_top)}` : `Take ${f(pub.discard_top)}`;
      return "Draw";
    case "discard": return a.card ? (a.jokers || a.skip ? `Go out: discard ${f(a.card)}` : `Discard ${f(a.card)}`) : "Discard";
    case "knock": return (view.endings || {})[a.card] === "gin" ? `${cap(words.gin_word || "gin")}: discard ${f(a.card)}` : `Knock with ${f(a.card)}`;
    case "big_gin": return cap(words.big_word || "big gin");
    case "choose_deal": return a.deal ? "Deal first" : "Let the other deal";
    case "setup": return a.format ? `Set up: ${a.format.replace(/_/g, " ")}` : "Set up the suit rows";
    case "new_hand": return "Deal the next hand";
    case "meld": return `Meld ${a.cards.map(f).join(" ")}${jokers}`;
    case "hit": return `Hit ${meldName(a.meld)} with ${a.cards.map(f).join(" ")}${jokers}`;
    case "take": return `Dig ${f(a.card)}` + (a.meld ? ` and meld ${a.meld.cards.map(f).join(" ")}${jokers}` : " and lay off");
    default: return a.type.replace(/_/g, " ");
  }
}
