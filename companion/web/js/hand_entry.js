// One player's cards at the end of a rummy hand, entered typed or tapped on the card grid,
// the melds the ender declares, and the choice between arrangements that tie: shared by the
// score sheet's entry (rummy.js) and the partnership's two tables (teams.js).

import { h, showError } from "./ui.js";
import { parseHand, pretty, cardGrid } from "./cards.js";

export function countText(n) { return `${n} card${n === 1 ? "" : "s"}`; }

// A card tapped on the grid: added to or taken out of `text`. `taken` maps a card to who
// else holds it. Returns {text, cards, added} or {error}.
export function toggleCard(text, card, deck, taken) {
  const cards = parseHand(text || "", deck).cards;
  if (cards.includes(card)) {
    const left = cards.filter(c => c !== card);
    return { text: left.join(" "), cards: left, added: false };
  }
  if (taken && taken.has(card)) return { error: `${pretty(card)} is already in ${taken.get(card)}'s hand` };
  const more = cards.concat([card]);
  return { text: more.join(" "), cards: more, added: true };
}

// The block for one player's cards: a label and the count, the typed cards, their error,
// and the card grid when this block is the active one (else a button to make it so).
//   id: the text input's id; countId, err (a fieldError), who (the player's name), label,
//   gridLabel, placeholder;
//   text, taken (a Map card -> name), active; onInput(text), onToggle(card), onActivate().
export function cardField({ deck, id, countId, err, who, label, gridLabel, text, taken, active, onInput, onToggle, onActivate,
  seat, extra, placeholder }) {
  const parsed = parseHand(text || "", deck);
  const count = h("span", { class: "count", id: countId }, countText(parsed.cards.length));
  const inp = h("input", { id, class: "hand-text", value: text || "", autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", placeholder: placeholder || (deck.kind === "rumski" ? "R1 R2 R3 … or tap below" : "AS 2S 3S … or tap below"),
    "aria-describedby": err.id });
  const gridBox = h("div", { class: "grid-box" });
  const drawGrid = (cards) => gridBox.replaceChildren(cardGrid({ deck, selected: cards, taken, label: gridLabel, onToggle }));
  inp.addEventListener("input", () => {
    const p = parseHand(inp.value, deck);
    count.textContent = countText(p.cards.length);
    showError(err, p.error || "");
    onInput(inp.value);
    if (active) drawGrid(p.cards);
  });
  const block = h("div", { class: "seat-block" + (active ? " active" : ""), dataset: seat === undefined ? {} : { seat } },
    h("div", { class: "row-between" }, h("label", { for: id }, label), count), inp, err);
  if (parsed.error) showError(err, parsed.error);
  if (extra) block.append(...[].concat(extra).filter(Boolean));
  if (active) { drawGrid(parsed.cards); block.append(gridBox); }
  else block.append(h("button", { type: "button", class: "btn small", onclick: onActivate }, `Use the card grid for ${who}`));
  return block;
}

// The melds an ender declares, typed as groups split by "/" ("7S 7H 7D / 3C 4C 5C").
export function declaredField({ id, who, value, err, onInput, help }) {
  const dec = h("input", { id, class: "hand-text", value: value || "", autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", placeholder: "e.g. 7S 7H 7D / 3C 4C 5C", "aria-describedby": err.id });
  dec.addEventListener("input", () => { onInput(dec.value); showError(err, ""); });
  return [h("label", { for: id }, `Melds ${who} declares (optional; groups split by /)`), dec, err,
    help ? h("p", { class: "help" }, help) : null];
}

// The declared text read against the ender's cards `own`: {groups} or {error}.
export function parseDeclared(text, deck, own, who) {
  const groups = [];
  for (const [i, part] of String(text || "").split(/[/|]/).map(x => x.trim()).filter(Boolean).entries()) {
    const p = parseHand(part, deck);
    if (p.error) return { error: `meld ${i + 1}: ${p.error}` };
    const stray = p.cards.filter(c => !own.includes(c));
    if (stray.length) return { error: `meld ${i + 1}: ${stray.map(pretty).join(" ")} is not in ${who}'s hand` };
    groups.push(p.cards);
  }
  return { groups };
}

// Melds as a declaration's text, and a key that ignores order and a wild's designation.
export function declaredText(melds) { return (melds || []).map(m => m.join(" ")).join(" / "); }
function meldsKey(melds) { return JSON.stringify((melds || []).map(m => m.map(c => c.split("=")[0]).sort()).map(m => m.join(" ")).sort()); }

// When arrangements tie on deadwood, the player says which was laid down.
// `ties` from a preview's arrangements; `used` the melds the result used; onPick(melds).
export function tieChoice({ ties, used, who, id, btn, onPick }) {
  const key = meldsKey(used);
  return h("div", { class: "ties", id },
    h("div", { class: "label", id: `${id}-label` }, `${ties.length} ways to meld ${who}'s hand leave the same deadwood (${ties[0].deadwood_value}): which did ${who} lay down?`),
    h("div", { class: "tie-list", role: "group", "aria-labelledby": `${id}-label` }, ...ties.map((a, i) =>
      h("button", { type: "button", class: "btn tie", id: `${btn || id + "-"}${i}`, "aria-pressed": meldsKey(a.melds) === key ? "true" : "false",
        onclick: () => onPick(a.melds) }, a.melds.map(m => m.map(pretty).join(" ")).join(" · ")))));
}
