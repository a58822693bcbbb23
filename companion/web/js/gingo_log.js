// The Gin-Go play log: every placement, bump, capture and link, hand by hand, from the
// game's `plays` (one line per action still standing). Shown during the game, after it
// ends and in the printed record.

import { h } from "./ui.js";
import { pretty } from "./cards.js";

export const WIN_REASON = {
  gin_held: "held the link since calling Gin",
  capture_link: "the capture completed the link",
  both_linked: "both sides linked; the side that went out wins",
  gin_first: "called Gin first",
};

const list = (cards) => cards.map(pretty).join(" ");
const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// One play in words. `frames` turns a space into the card it is for the side that
// placed the chip, so a bump reads as "on 9♦" rather than as a space number.
export function playText(p, names, sides, frames) {
  const who = names[p.seat] ?? sides[String(p.side)] ?? "";
  const at = (space) => {
    const f = frames && frames[String(p.side)];
    const card = f && Object.keys(f).find(c => f[c] === space);
    return card ? pretty(card) : `space ${space}`;
  };
  const chips = () => {
    const bits = [];
    const placed = (p.placed || []).length;
    if (placed) bits.push(`${count(placed, "chip", "chips")} placed`);
    if ((p.bumped || []).length) {
      const other = sides[p.side === 1 ? "2" : "1"];
      bits.push(`bumped ${other}'s on ${(p.bumped || []).map(at).join(" ")}`);
    }
    if ((p.forfeited || []).length) bits.push(`forfeited ${list(p.forfeited)}`);
    return bits.length ? `: ${bits.join(", ")}` : "";
  };
  let text;
  if (p.type === "setup") text = `Suit rows set · ${names[p.dealer] ?? ""} deals`;
  else if (p.type === "new_hand") text = `Hand ${p.hand} dealt by ${names[p.dealer] ?? ""}`;
  else if (p.type === "stock_exhausted") text = "The stock ran out: the melds became the new stock";
  else if (p.type === "pass") text = `${who} drew and discarded: no meld`;
  else if (p.type === "meld") text = `${who} melded ${list(p.cards || [])}${chips()}`;
  else if (p.type === "hit") text = `${who} hit meld #${p.meld} with ${list(p.cards || [])}${chips()}`;
  else if (p.type === "go_out") {
    const caught = Object.entries(p.captured || {}).map(([s, cs]) => `${list(cs)} from ${names[Number(s)] ?? s}`);
    text = `${who} went out${caught.length ? `, capturing ${caught.join(" and ")}` : ""}${chips()}`;
    if ((p.jokers_dead || []).length) text += ` (dead: ${p.jokers_dead.join(" ")})`;
  } else text = p.type;
  for (const l of p.links || []) text += ` · ${sides[String(l.side)]}: ${l.formed ? "linked A row to K row" : "link broken"}`;
  if (p.hand_end) {
    const e = p.hand_end;
    const team = sides[String(e.winner)] || "";
    text += e.winner ? ` · ${team} win${team.includes("&") ? "" : "s"}${WIN_REASON[e.reason] ? ` (${WIN_REASON[e.reason]})` : ""}` : " · no link: the chips stay";
  }
  return text;
}

export function playLog(g, names, sides) {
  const plays = g.plays || [];
  if (!plays.length) return [h("h2", null, "Plays"), h("p", { class: "muted" }, "Nothing played yet.")];
  const byHand = new Map();
  for (const p of plays) {
    if (!byHand.has(p.hand)) byHand.set(p.hand, []);
    byHand.get(p.hand).push(p);
  }
  const out = [h("h2", null, "Plays")];
  for (const [hand, ps] of byHand) {
    out.push(h("h3", null, `Hand ${hand}`), h("ol", { class: "play-log" }, ...ps.map(p => h("li", {
      dataset: { play: p.n, type: p.type }, class: p.hand_end && p.hand_end.winner ? "won" : null,
    }, playText(p, names, sides, g.frames)))));
  }
  return out;
}
