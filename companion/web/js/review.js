// What another phone changed while this one was entering a hand (the companion lists
// the changes with a stale version's 409, and with a preview from an old version), and a
// hand's score in words ("25 gin bonus + 8 Ben's deadwood").

import { h } from "./ui.js";

// One change as a player says it: "Ben's phone scored hand 4".
export function changeText(c) {
  const who = c.by || "Another phone";
  const n = c.hand;
  switch (c.type) {
    case "hand": return `${who} scored hand ${n ?? ""}`.trim();
    case "hand_corrected": return `${who} corrected hand ${n ?? ""}`.trim();
    case "undo":
      if (c.of === "hand" && n) return `${who} undid hand ${n}`;
      if (c.of === "hand_corrected" && n) return `${who} undid a correction of hand ${n}`;
      return `${who} undid an entry`;
    case "redo":
      if (c.of === "hand" && n) return `${who} brought back hand ${n}`;
      if (c.of === "hand_corrected" && n) return `${who} brought back a correction of hand ${n}`;
      return `${who} brought back an entry`;
    case "game_deleted": return "The game was deleted";
    default: return `${who} changed the game`;
  }
}

// The hands the changes touched (to mark them on the sheet).
export function changedHands(changes) {
  return new Set((changes || []).map(c => c.hand).filter(n => typeof n === "number"));
}

// The review shown before anything is written: what changed, the changed hands as they
// stand now, and the choices (each a [label, id, onClick, primary]).
export function reviewPanel(changes, describeHand, choices) {
  const list = changes || [];
  const first = list.length ? changeText(list[list.length - 1]) : "Another phone changed this game";
  const title = list.length > 1 ? `${first} (and ${list.length - 1} more) meanwhile: review` : `${first} meanwhile: review`;
  const hands = [...changedHands(list)].sort((a, b) => a - b);
  return h("div", { class: "review", id: "review", role: "alert" },
    h("h2", { id: "review-title" }, title),
    h("ul", { id: "review-changes" }, ...list.map(c => h("li", null, changeText(c) + "."))),
    hands.length ? h("div", { class: "label" }, "On the sheet now (marked):") : null,
    hands.length ? h("ul", { id: "review-hands" }, ...hands.map(n => h("li", { dataset: { hand: n } }, describeHand(n)))) : null,
    h("p", { class: "help" }, "Your entry is still on this phone: nothing of it was written."),
    h("div", { class: "actions wrap" }, ...choices.map(([label, id, onClick, primary]) =>
      h("button", { type: "button", class: "btn" + (primary ? " primary" : ""), id, onclick: onClick }, label))));
}

// "Ana scores 33: 25 gin bonus + 8 Ben's deadwood" (null without a breakdown).
export function breakdownText(b, names) {
  if (!b || !Array.isArray(b.parts) || !b.parts.length) return null;
  const sum = b.parts.map(p => `${p.points} ${p.label}`).join(" + ");
  const times = b.times > 1 ? `(${sum}) × ${b.times}` : sum;
  const who = names[b.seat] ?? `Player ${b.seat + 1}`;
  if (b.per_suit) return `${who} scores ${b.total} in each open suit: ${times}`;
  return `${who} scores ${b.total}: ${times}`;
}
