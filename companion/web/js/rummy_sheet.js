// The rummy score sheets (Gin Rummy and Ginski: a column per player; Color Gin: four
// suit columns per player) and the end-of-match summary: totals, every bonus, final; the
// game's players and scored hands as the sheet reads them.

import { h } from "./ui.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_WORD = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

export function namesOf(game) {
  return (game.players || []).map((p, i) => typeof p === "string" ? p : (p && p.name) || `Player ${i + 1}`);
}

// A scored hand as the service lists it: {n, result, input} in whichever shape it uses.
export function handsOf(game) {
  return (game.hands || []).map((item, i) => {
    const result = item.result || item;
    const input = item.input || (item.hands || item.deadwood ? { ender: item.ender, hands: item.hands, deadwood: item.deadwood, declared: item.declared, big_gin: item.big_gin, upcard: item.upcard, joker: item.joker } : null);
    const n = item.n ?? item.number ?? item.hand ?? i + 1;
    return { n, result, input, raw: item };
  });
}

export function matchOf(game) {
  const m = game.match || game.score || {};
  return {
    totals: m.totals || game.scores || [],
    final: m.final || game.final || null,
    bonuses: m.bonuses || game.bonuses || [],
    hands_won: m.hands_won || game.hands_won || null,
    extra: m.extra || game.extra || {},
    finished: game.finished ?? m.finished,
    winner: game.winner ?? m.winner,
  };
}

export function bonusLabel(b) {
  const k = String(b.kind || b.name || "bonus");
  const map = { game: "Game bonus", box: "Boxes", boxes: "Boxes", line: "Boxes", shutout: "Shutout bonus" };
  return map[k] || (k.charAt(0).toUpperCase() + k.slice(1)).replace(/_/g, " ");
}

// Each bonus kind with its points per seat, in the order the match gives them.
function bonusRows(m, seats) {
  const byKind = new Map();
  for (const b of m.bonuses) {
    const k = bonusLabel(b);
    if (!byKind.has(k)) byKind.set(k, Array.from({ length: seats }, () => 0));
    if (typeof b.seat === "number" && b.seat < seats) byKind.get(k)[b.seat] += Number(b.points) || 0;
  }
  return byKind;
}

// `changed`: hand numbers to mark (another phone changed them while this one was entering).
export function plainSheet(names, hands, m, kindLabel, changed) {
  const head = h("tr", null, h("th", { scope: "col" }, "#"), ...names.map(n => h("th", { scope: "col" }, n)));
  const rows = hands.map(({ n, result }) => h("tr", { dataset: { hand: n }, class: changed && changed.has(n) ? "changed" : null },
    h("th", { scope: "row", title: kindLabel(result.kind) }, `${n}`, h("small", null, " " + kindLabel(result.kind))),
    ...names.map((_, s) => {
      const p = Array.isArray(result.points) ? result.points[s] : 0;
      return h("td", { class: p ? "pos" : "zero" }, p ? String(p) : "·");
    })));
  const foot = [h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"),
    ...names.map((_, s) => h("td", { dataset: { totalSeat: s } }, String(m.totals[s] ?? 0))))];
  if (m.hands_won) {
    foot.push(h("tr", { class: "won" }, h("th", { scope: "row" }, "Hands won"),
      ...names.map((_, s) => h("td", { dataset: { wonSeat: s } }, String(m.hands_won[s] ?? 0)))));
  }
  for (const [k, pts] of bonusRows(m, names.length)) {
    foot.push(h("tr", { class: "bonus", dataset: { bonus: k } }, h("th", { scope: "row" }, k),
      ...pts.map((p, s) => h("td", { dataset: { bonusSeat: s } }, p ? `+${p}` : "·"))));
  }
  if (m.final && m.finished) {
    foot.push(h("tr", { class: "final" }, h("th", { scope: "row" }, "Final"),
      ...names.map((_, s) => h("td", { dataset: { finalSeat: s } }, String(m.final[s] ?? 0)))));
  }
  return h("table", { class: "sheet", id: "score-table" }, h("thead", null, head), h("tbody", null, ...rows), h("tfoot", null, ...foot));
}

export function colorSheet(names, hands, m, target, changed) {
  const suits = "SHDC".split("");
  const closed = m.extra.closed || {};
  const suitWinner = m.extra.suit_winner || {};
  const isClosed = (s) => Array.isArray(closed) ? closed.includes(s) : !!closed[s];
  const head1 = h("tr", null, h("td", null), ...names.map(n => h("th", { colspan: 4, scope: "colgroup" }, n)));
  const head2 = h("tr", null, h("th", { scope: "col" }, "#"), ...names.flatMap(() => suits.map(s =>
    h("th", { scope: "col", class: "suit-" + s + (isClosed(s) ? " closed" : ""), "aria-label": SUIT_WORD[s] }, SUIT_SYMBOL[s]))));
  const rows = hands.map(({ n, result }) => {
    const spoiled = (result.extra && result.extra.spoiled) || [];
    return h("tr", { dataset: { hand: n }, class: changed && changed.has(n) ? "changed" : null }, h("th", { scope: "row" }, String(n)),
      ...names.flatMap((_, p) => suits.map(s => {
        const pts = result.points && result.points[p] ? (result.points[p][s] || 0) : 0;
        if (spoiled.includes(s) && !pts) return h("td", { class: "spoiled", title: `${SUIT_WORD[s]} spoiled this hand` }, "✕");
        return h("td", { class: pts ? "pos" : "zero" }, pts ? String(pts) : "·");
      })));
  });
  const total = h("tr", { class: "total" }, h("th", { scope: "row" }, "Σ"),
    ...names.flatMap((_, p) => suits.map(s => {
      const v = m.totals[p] ? (m.totals[p][s] || 0) : 0;
      const won = suitWinner[s] !== undefined && suitWinner[s] !== null && Number(suitWinner[s]) === p;
      return h("td", { class: (isClosed(s) ? "closed" : "") + (won ? " won" : ""), dataset: { totalSeat: p, suit: s },
        title: won ? `${names[p]} took ${SUIT_WORD[s]}` : (isClosed(s) ? "closed" : "") }, (won ? "★" : "") + String(v));
    })));
  const goal = Number(target) > 0 ? `${target} or more` : "the target";
  const legend = h("p", { class: "help", id: "color-legend" },
    `✕ spoiled that hand · ★ suit taken (${goal} closes it) · three suits win the match`);
  return h("div", null, h("table", { class: "sheet color", id: "score-table" }, h("thead", null, head1, head2), h("tbody", null, ...rows), h("tfoot", null, total)), legend);
}

// The end of the match in words: each player's total, every bonus, the final score and
// the winner (also the last thing of the printed record).
export function finalSummary(names, m, suitColumns) {
  if (!m.finished) return null;
  const items = names.map((n, s) => {
    const parts = [];
    if (suitColumns) {
      const taken = Object.entries(m.extra.suit_winner || {}).filter(([, w]) => w !== null && Number(w) === s).map(([k]) => SUIT_SYMBOL[k] || k);
      parts.push(`suits taken: ${taken.length ? taken.join(" ") : "none"}`);
    } else {
      parts.push(`hands ${m.totals[s] ?? 0}`);
      for (const [k, pts] of bonusRows(m, names.length)) if (pts[s]) parts.push(`${k.toLowerCase()} +${pts[s]}`);
    }
    const fin = m.final ? m.final[s] : m.totals[s];
    return h("li", { dataset: { seat: s } }, h("strong", null, n), `: ${parts.join(", ")}`,
      suitColumns ? null : h("span", null, " = ", h("strong", { class: "final-points" }, String(fin ?? 0))));
  });
  const w = m.winner;
  const verdict = (w === null || w === undefined) ? "The match is a tie." : `${names[w] ?? w} wins the match.`;
  return h("section", { class: "panel final-summary", id: "final-summary" },
    h("h2", null, "Final score"), h("ul", null, ...items), h("p", { class: "verdict" }, verdict));
}
