// What a rummy hand's preview shows (the verdict, the breakdown, what a correction does to
// the match, each player's melds, lay-offs and deadwood) and a hand in one line.

import { h } from "./ui.js";
import { cardChip } from "./cards.js";
import { SUIT_SYMBOL, matchOf } from "./rummy_sheet.js";
import { breakdownText } from "./review.js";

// "Ben: knock · Ben +8" (Color Gin: "+38 per open suit"); a game where nobody ends the
// hand (noEnder: its rules' entries.ender is false) says only how it ended: "lowest · Ben +8".
export function handWords(result, names, kindLabel, noEnder = false) {
  const ender = result.ender !== null && result.ender !== undefined ? names[result.ender] : "nobody";
  const winner = result.winner !== null && result.winner !== undefined ? names[result.winner] : null;
  let pts = "";
  if (Array.isArray(result.points) && winner) {
    const p = result.points[result.winner];
    pts = typeof p === "object" ? ` +${Object.values(p).reduce((a, b) => Math.max(a, b), 0)} per open suit` : ` +${p}`;
  }
  const how = noEnder && ender === "nobody" ? kindLabel(result.kind) : `${ender}: ${kindLabel(result.kind)}`;
  return `${how}${winner ? ` · ${winner}${pts}` : ""}`;
}

// The match after a correction, said plainly (it may be over no more, or over now).
function matchAfter(before, after, names) {
  const was = matchOf(before), now = matchOf(after);
  const tot = (m) => names.map((n, s) => `${n} ${typeof m.totals[s] === "object" ? Object.values(m.totals[s]).reduce((a, b) => a + b, 0) : (m.totals[s] ?? 0)}`).join(", ");
  const who = (w, wins) => w === null || w === undefined ? "a tie" : `${names[w]} ${wins}`;
  if (was.finished && !now.finished) return `After this correction the match is not over any more (${tot(now)}): play goes on.`;
  if (!was.finished && now.finished) return `This correction ends the match: ${who(now.winner, "wins")} (${tot(now)}).`;
  if (was.finished && now.finished && was.winner !== now.winner) return `After this correction the match ends in ${who(now.winner, "winning instead")} (${tot(now)}).`;
  return `After this correction: ${tot(now)}.`;
}

// `r`: the result; `res`: the whole preview answer; `before`: the game as the page shows it.
export function resultKids(r, res, { names, kindLabel, editing, before, noEnder = false }) {
  const kids = [];
  const kind = kindLabel(r.kind);
  const winner = r.winner !== null && r.winner !== undefined ? names[r.winner] : null;
  const nobody = r.ender === null || r.ender === undefined;
  const how = nobody && noEnder ? kind.charAt(0).toUpperCase() + kind.slice(1) : `${nobody ? "Nobody" : names[r.ender]}: ${kind}`;
  kids.push(h("p", { class: "verdict", id: "preview-verdict" }, `${how}.`, winner ? ` ${winner} scores.` : " No score."));
  const why = breakdownText(res.breakdown, names);
  if (why) kids.push(h("p", { class: "breakdown", id: "preview-breakdown" }, why));
  if (r.extra && r.extra.spoiled) kids.push(h("p", { id: "preview-spoiled" }, "Spoiled suits: ", r.extra.spoiled.length ? r.extra.spoiled.map(s => SUIT_SYMBOL[s] || s).join(" ") : "none"));
  if (r.extra && r.extra.undercutter !== undefined && r.extra.undercutter !== null) kids.push(h("p", null, `Undercut by ${names[r.extra.undercutter]}`));
  if (editing !== null && res.game) kids.push(h("p", { class: "match-after", id: "preview-match" }, matchAfter(before, res.game, names)));
  names.forEach((n, s) => {
    const melds = (r.melds && r.melds[s]) || [];
    const lay = (r.layoffs && r.layoffs[s]) || [];
    const dwc = (r.deadwood_cards && r.deadwood_cards[s]) || [];
    const pts = Array.isArray(r.points) ? r.points[s] : 0;
    const ptsText = typeof pts === "object" && pts ? Object.entries(pts).filter(([, v]) => v).map(([k, v]) => `${SUIT_SYMBOL[k] || k} ${v}`).join(", ") || "0" : String(pts ?? 0);
    kids.push(h("div", { class: "seat-result", dataset: { seat: s } },
      h("h3", null, n, h("span", { class: "pts" }, ` ${ptsText} points`)),
      melds.length ? h("div", { class: "melds" }, ...melds.map(ml => h("span", { class: "meld" }, ...ml.map(cardChip)))) : null,
      lay.length ? h("p", null, "Laid off: ", ...lay.map(cardChip)) : null,
      h("p", null, `Deadwood ${r.deadwood ? r.deadwood[s] : "?"}`, dwc.length ? ": " : "", ...dwc.map(cardChip))));
  });
  for (const note of r.notes || []) kids.push(h("p", { class: "help" }, note));
  return kids;
}
