// Dealt play: what the Play screen says between moves and hands. The score line (the game,
// its rule set and the running score), each other seat's last move in words ("Bot 1 drew
// from the stock and threw 9♣"), the hand-over panel when a hand ends (every hand face up
// with its melds, lay-offs and deadwood, how the points were made, the totals, Next hand)
// and the match end (the winner, the final score with its bonuses, Rematch, the score
// sheet, each hand again). Everything comes from the seat's view and the game as the API
// gives them (public.recent, public.last_hand, dealt.hand_overs).

import { h } from "./ui.js";
import { face, red, SUIT } from "./play_cards.js";
import { suitClass } from "./cards.js";
import { plainSheet, colorSheet, finalSummary, matchOf, bonusLabel } from "./rummy_sheet.js";
import { breakdownText } from "./review.js";

const KIND = { gin: "gin", big_gin: "big gin", knock: "knock", undercut: "undercut", void: "no score (the stock ran out)", showdown: "showdown" };
const REASON = {
  gin_held: "held Gin until the capture", capture_link: "the capture completed the link",
  both_linked: "both sides linked: the side that went out wins", gin_first: "both sides linked: Gin was called first",
};

// the rule set's gin word (Ginski's "Ginski") for a kind
export function kindWord(kind, rules) {
  if (kind === "gin") return rules.gin_word || "gin";
  if (kind === "big_gin") return rules.big_word || "big gin";
  return KIND[kind] || String(kind || "").replace(/_/g, " ");
}

// A card as a chip (a wild written "W5=B3" shows what it stands for).
function chip(name, deck) {
  const [card, as] = String(name).split("=");
  const text = as ? `${face(card, deck)} as ${face(as, deck)}` : face(card, deck);
  return h("span", { class: `card ${suitClass(as || card)}${red(as || card, deck) ? " red" : ""}` }, text);
}
const chips = (cards, deck) => (cards || []).map(c => chip(c, deck));
const cardsText = (cards, deck) => (cards || []).map(c => String(c).split("=").map(x => face(x, deck)).join(" as ")).join(" ");

// ---- the score line ------------------------------------------------------------------------
function total(t) { return typeof t === "object" && t ? Object.values(t).reduce((a, b) => a + (Number(b) || 0), 0) : Number(t) || 0; }

// "Gin Rummy · Full rules with boxes (seed 004)" and "Ann 25 · Bot 1 40 (to 100)" (Color Gin: per suit)
export function scoreLine(game, view, names) {
  const pub = view.public || {};
  const rules = game.rules || {};
  const preset = game.preset_label || game.rules_label || game.preset;
  const title = `${rules.label || game.variant}${preset ? ` · ${preset}` : ""}`;
  let score = "";
  if (!pub.table) {  // Gin-Go: the board's foot says each side's chips and how far it is from a link
    const m = pub.match || {};
    const totals = m.totals || [];
    score = names.map((n, s) => {
      const t = totals[s];
      if (typeof t === "object" && t) return `${n} ${Object.entries(t).map(([k, v]) => `${SUIT[k] || k}${v}`).join(" ")}`;
      return `${n} ${t ?? 0}`;
    }).join(" · ");
    const target = (game.options || {}).game_target;
    if (target && !rules.suit_columns) score += ` (to ${target})`;
  }
  return h("p", { class: "play-score", id: "play-score" }, h("span", { class: "play-game" }, title),
    score ? h("span", { class: "play-totals" }, score) : null);
}

// ---- each other seat's last move in words -----------------------------------------------------
// first: "upcard" for a hand's first take, "stock" where the stock is the only draw (Gin-Go digs the pile)
function moveWords(m, deck, first) {
  const f = (c) => face(c, deck);
  switch (m.type) {
    case "draw":
      if (m.source === "discard") return first === "upcard" ? `took the upcard ${f(m.card)}` : `took ${f(m.card)} from the discard pile`;
      return first === "stock" ? "drew" : "drew from the stock";
    case "pass": return "passed";
    case "discard": return `threw ${f(m.card)}`;
    case "knock": return `knocked, throwing ${f(m.card)}`;
    case "big_gin": return "went big gin";
    case "choose_deal": return m.deal ? "chose to deal" : "let the other deal";
    case "take": return `dug ${f(m.card)}`;
    case "meld": return `melded ${cardsText(m.cards, deck)}`;
    case "hit": return `laid off ${cardsText(m.cards, deck)}`;
    case "setup": return "set up the suit rows";
    case "new_hand": return "dealt the next hand";
    default: return String(m.type || "moved").replace(/_/g, " ");
  }
}

function joinWords(parts) {
  if (parts.length < 2) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

// The latest turn of `seat` (its moves since another seat moved) in words, without the
// seat's name ("drew from the stock and threw 9♣"), or null when it has not moved yet.
// (pileDraw false: the game draws only from the stock, so a draw is just "drew").
export function lastMoveWords(recent, seat, deck, pileDraw = true) {
  let end = recent.length - 1;
  while (end >= 0 && recent[end].seat !== seat) end--;
  if (end < 0) return null;
  let start = end;
  while (start > 0 && recent[start - 1].seat === seat && recent[start - 1].hand === recent[end].hand) start--;
  const turn = recent.slice(start, end + 1);
  const upcard = start === 0 || recent[start - 1].hand !== recent[end].hand;
  return joinWords(turn.map((m, i) => moveWords(m, deck, !pileDraw ? "stock" : i === 0 && upcard ? "upcard" : "")));
}

// ---- the hand-over panel ------------------------------------------------------------------------
function rummyHeading(s, names, rules) {
  const r = s.result;
  const who = (i) => (i === null || i === undefined ? "Nobody" : names[i]);
  const kind = r.kind;
  if (kind === "void") return `Hand ${s.hand}: no score, the stock ran out`;
  if (kind === "showdown") return `Hand ${s.hand}: the stock ran out, ${who(r.winner)} wins the showdown`;
  if (kind === "undercut") return `Hand ${s.hand}: ${who(r.ender)} knocked, ${who(r.winner)} undercuts`;
  const verb = kind === "knock" ? "knocks" : `goes ${kindWord(kind, rules)}`;
  return `Hand ${s.hand}: ${who(r.ender)} ${verb}${r.winner !== null && r.winner !== undefined && r.winner !== r.ender ? `, ${who(r.winner)} scores` : ""}`;
}

function pointsText(p) {
  if (typeof p === "object" && p) {
    const parts = Object.entries(p).filter(([, v]) => v).map(([k, v]) => `${SUIT[k] || k} ${v}`);
    return parts.length ? parts.join(", ") : "0";
  }
  return String(p ?? 0);
}

function rummyKids(s, names, rules, deck) {
  const r = s.result;
  const kids = [];
  const why = breakdownText(s.breakdown, names);
  if (why) kids.push(h("p", { class: "breakdown", id: "handover-breakdown" }, why + "."));
  const extra = r.extra || {};
  if (Array.isArray(extra.spoiled)) kids.push(h("p", { id: "handover-suits" }, "Spoiled suits: ", extra.spoiled.length ? extra.spoiled.map(k => SUIT[k] || k).join(" ") : "none",
    Array.isArray(extra.scoring_suits) ? ` · scoring suits: ${extra.scoring_suits.map(k => SUIT[k] || k).join(" ") || "none"}` : ""));
  if (Array.isArray(extra.undercutters) && extra.undercutters.length) kids.push(h("p", null, `Undercut by ${extra.undercutters.map(i => names[i]).join(" and ")}`));
  else if (extra.undercutter !== undefined && extra.undercutter !== null) kids.push(h("p", null, `Undercut by ${names[extra.undercutter]}`));
  names.forEach((n, i) => {
    const melds = (r.melds && r.melds[i]) || [];
    const lay = (r.layoffs && r.layoffs[i]) || [];
    const dead = (r.deadwood_cards && r.deadwood_cards[i]) || [];
    const role = i === r.ender ? (r.kind === "knock" || r.kind === "undercut" ? " (knocked)" : ` (${kindWord(r.kind, rules)})`) : "";
    kids.push(h("div", { class: "seat-result handover-seat", dataset: { seat: String(i) } },
      h("h3", null, `${n}${role}`, h("span", { class: "pts" }, ` +${pointsText(Array.isArray(r.points) ? r.points[i] : 0)}`)),
      melds.length ? h("div", { class: "melds" }, h("span", { class: "visually-hidden" }, "Melds: "), ...melds.map(ml => h("span", { class: "meld" }, ...chips(ml, deck))))
        : h("p", { class: "muted" }, "No melds"),
      lay.length ? h("p", { class: "handover-layoffs" }, "Laid off: ", ...chips(lay, deck)) : null,
      h("p", { class: "handover-deadwood" }, `Deadwood ${r.deadwood ? r.deadwood[i] : 0}`, dead.length ? ": " : "", ...chips(dead, deck))));
  });
  return kids;
}

function totalsList(m, names) {
  const totals = m.totals || [];
  return h("p", { class: "handover-totals", id: "handover-totals" }, "Totals: ", names.map((n, s) => {
    const t = totals[s];
    return typeof t === "object" && t ? `${n} ${Object.entries(t).map(([k, v]) => `${SUIT[k] || k} ${v}`).join(", ")}` : `${n} ${t ?? 0}`;
  }).join(" · "));
}

function gingoHeading(s, names, sides) {
  const out = s.went_out !== null && s.went_out !== undefined ? `${names[s.went_out]} went out` : "the stock ran out twice";
  const won = s.winner !== null && s.winner !== undefined ? `, ${sides[String(s.winner)]} win${String(sides[String(s.winner)]).includes("&") ? "" : "s"} the game` : "";
  return `Hand ${s.hand}: ${out}${won}`;
}

function gingoKids(s, names, sides, deck) {
  const kids = [];
  if (s.reason) kids.push(h("p", { class: "breakdown" }, `${REASON[s.reason] || s.reason.replace(/_/g, " ")}.`));
  for (const [seat, cards] of Object.entries(s.captured || {})) {
    kids.push(h("div", { class: "seat-result handover-seat", dataset: { seat } }, h("h3", null, `${names[Number(seat)]}: captured`),
      h("p", null, ...chips(cards, deck))));
  }
  for (const [seat, cards] of Object.entries(s.held || {})) {
    kids.push(h("div", { class: "seat-result handover-seat", dataset: { seat } }, h("h3", null, `${names[Number(seat)]} held`),
      h("p", null, ...chips(cards, deck))));
  }
  if (s.went_out !== null && s.went_out !== undefined) {
    kids.push(h("p", { id: "handover-capture" }, `The capture placed ${s.placed} chip${s.placed === 1 ? "" : "s"} for ${names[s.went_out]}'s side`,
      s.bumped ? ` (${s.bumped} taken from the other side)` : "", "."));
  }
  for (const j of s.jokers_laid || []) kids.push(h("p", null, `${j.joker} laid on a meld as ${face(j.as, deck)}.`));
  if ((s.jokers_dead || []).length) kids.push(h("p", null, `Dead jokers: ${s.jokers_dead.join(" ")}.`));
  const dist = s.link_distance || {};
  kids.push(h("p", { class: "handover-totals", id: "handover-totals" }, "Links: ", Object.keys(sides).map(k =>
    (s.links && s.links[k]) ? `${sides[k]} linked${s.gin && s.gin[k] ? " (Gin called)" : ""}` : `${sides[k]} ${dist[k] ?? "?"} spaces from a link`).join(" · ")));
  return kids;
}

// The words said to a screen reader when a hand ends (one sentence, then the totals).
export function handOverWords(s, names, rules, sides) {
  if (s.result) {
    const why = breakdownText(s.breakdown, names);
    const m = s.match || {};
    const tot = names.map((n, i) => `${n} ${total((m.totals || [])[i])}`).join(", ");
    return `${rummyHeading(s, names, rules)}. ${why ? why + ". " : ""}Totals: ${tot}.`;
  }
  return `${gingoHeading(s, names, sides)}.`;
}

// env: {summary, names, rules, deck, sides, onNext, nextWord, auto}
export function handOverPanel(env) {
  const { summary: s, names, rules, deck, sides } = env;
  const heading = s.result ? rummyHeading(s, names, rules) : gingoHeading(s, names, sides);
  const kids = s.result ? rummyKids(s, names, rules, deck) : gingoKids(s, names, sides, deck);
  if (s.result) kids.push(totalsList(s.match || {}, names));
  const next = h("button", { type: "button", class: "btn primary big", id: "handover-next", onclick: env.onNext }, env.nextWord || "Next hand");
  return h("section", { class: "panel handover", id: "hand-over", "aria-labelledby": "handover-title", dataset: { hand: String(s.hand) } },
    h("h2", { id: "handover-title" }, heading), ...kids,
    env.auto ? h("p", { class: "muted", id: "handover-auto" }, env.auto) : null,
    h("div", { class: "handover-bar" }, next));
}

// ---- the match end ------------------------------------------------------------------------------
function gingoSheet(game, names, sides) {
  const hands = ((game.dealt || {}).hand_overs || []);
  const rows = hands.map(s => h("tr", { dataset: { hand: String(s.hand) } },
    h("th", { scope: "row" }, String(s.hand)),
    h("td", null, s.went_out !== null && s.went_out !== undefined ? names[s.went_out] : "stock out"),
    h("td", null, String(Object.values(s.captured || {}).reduce((a, c) => a + c.length, 0))),
    h("td", null, String(s.placed ?? 0)),
    h("td", null, s.winner !== null && s.winner !== undefined ? sides[String(s.winner)] : "·")));
  return h("table", { class: "sheet", id: "score-table" },
    h("thead", null, h("tr", null, ...[["#", "hand"], ["Out", "went out"], ["Took", "cards captured"], ["Chips", "chips placed"], ["Won", "winner"]]
      .map(([t, words]) => h("th", { scope: "col", title: words }, t)))),
    h("tbody", null, ...rows));
}

// env: {game (GET /api/v1/games/{id}), names, rules, deck, sides, matchWord ("match"; Gin-Go: "game"), rematch, error}
export function matchEnd(env) {
  const { game, names, rules, deck, sides } = env;
  const dealt = game.dealt || {};
  const gingo = !!(dealt.table);
  const kids = [];
  let verdict;
  const m = matchOf(game);
  if (gingo) {
    const w = dealt.table.winner;
    verdict = w === null || w === undefined ? "The game is over." : `${sides[String(w)]} win${String(sides[String(w)]).includes("&") ? "" : "s"} the game`;
    const why = dealt.table.win_reason;
    kids.push(h("h3", { class: "winner", id: "match-winner" }, verdict + (why ? `: ${REASON[why] || why.replace(/_/g, " ")}` : "") + "."));
    kids.push(h("div", { class: "sheet-wrap", id: "sheet" }, gingoSheet(game, names, sides)));
  } else {
    const w = m.winner;
    verdict = (w === null || w === undefined) ? "The match is a tie" : `${names[w]} wins the match`;
    const fin = m.final || m.totals || [];
    kids.push(h("h3", { class: "winner", id: "match-winner" }, `${verdict}${w !== null && w !== undefined && !rules.suit_columns ? `, ${fin[w]} to ${names.map((_, s) => s === w ? null : fin[s]).filter(x => x !== null).join(" and ")}` : ""}.`));
    const bon = (m.bonuses || []).map(b => `${bonusLabel(b)} ${names[b.seat]} +${b.points}${b.boxes ? ` (${b.boxes} boxes)` : ""}`);
    if (bon.length) kids.push(h("p", { id: "match-bonuses" }, bon.join(" · ")));
    const hands = (game.hands || []).map((x, i) => ({ n: x.n ?? i + 1, result: x.result || x }));
    kids.push(h("div", { class: "sheet-wrap", id: "sheet" }, rules.suit_columns
      ? colorSheet(names, hands, m, (game.options || {}).target, null)
      : plainSheet(names, hands, m, (k) => kindWord(k, rules), null)));
    const fs = finalSummary(names, m, !!rules.suit_columns);
    if (fs) kids.push(fs);
  }
  kids.push(h("div", { class: "actions wrap" },
    h("button", { type: "button", class: "btn primary big", id: "rematch-btn", onclick: env.rematch }, "Rematch"),
    h("a", { class: "btn", href: "#/play/new" }, "New deal"),
    h("a", { class: "btn", href: "#/games" }, "Games")), env.error);
  const each = (dealt.hand_overs || []).slice().reverse().map(s => h("details", { class: "handover-past", dataset: { hand: String(s.hand) } },
    h("summary", null, s.result ? rummyHeading(s, names, rules) : gingoHeading(s, names, sides)),
    ...(s.result ? rummyKids(s, names, rules, deck) : gingoKids(s, names, sides, deck))));
  if (each.length) kids.push(h("section", { class: "handover-list", id: "match-hands" }, h("h2", null, "Each hand"), ...each));
  return { el: h("section", { class: "panel match-end", id: "match-end", "aria-labelledby": "match-end-title" },
    h("h2", { id: "match-end-title" }, `${rules.label || game.variant}: ${env.matchWord || rules.match_word || (gingo ? "game" : "match")} over`), ...kids), words: verdict };
}
