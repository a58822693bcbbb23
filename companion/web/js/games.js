// Games told apart at a glance: the list and the history show each game's date, game,
// rule set, players and score. The words come from GET /api/v1/variants (the page never
// shows an option code).

import * as api from "./api.js";
import { h, rulesOf } from "./ui.js";
import { remoteText } from "./remote.js";

export function gamesOf(data) { return Array.isArray(data) ? data : (data && data.games) || []; }

export function playerNames(game) {
  return (game.players || []).map((p, i) => typeof p === "string" ? p : (p && p.name) || `Player ${i + 1}`);
}

// The variants as the page uses them (see normVariants in new_game.js), loaded once.
export async function variantsOf(ctx) {
  if (!ctx.variants) {
    try { ctx.variants = ctx.normVariants(await api.get("/api/v1/variants")); } catch { return []; }
  }
  return ctx.variants;
}

function variantOf(variants, g) { return (variants || []).find(v => v.name === g.variant) || null; }

// Seats by side for a game played by sides (Gin-Go): from the game's own rules, else the
// variant's list (a summary line carries no rules block).
function sidesOf(g, variants) {
  const own = rulesOf(g).sides;
  if (own) return own;
  const v = variantOf(variants, g);
  const n = (g.players || []).length;
  return (v && v.sides && v.sides[String(n)]) || null;
}

// The two teams of a game played by teams at two tables, Gin Rummy's partnership (its
// "winner" is a team, 0 or 1, never a seat): the game and its summary line say so
// (team_play), as do its rules.
const TEAMS = [[0, 2], [1, 3]];
export function isPartnership(g) { return g.team_play === true || rulesOf(g).team_play === true; }
function teamOf(g, t) { return (Array.isArray(g.teams) && g.teams[t] && g.teams[t].seats) || TEAMS[t] || []; }

export function winnerName(game, names, variants) {
  const w = game.winner;
  if (w === null || w === undefined) return "";
  if (isPartnership(game)) {
    const seats = Array.isArray(game.winning_seats) ? game.winning_seats : teamOf(game, w);
    return `team ${w ? "B" : "A"} (${seats.map(s => names[s] || `Player ${s + 1}`).join(" & ")})`;
  }
  const sides = sidesOf(game, variants);
  if (sides) return (sides[String(w)] || []).map(s => names[s]).join(" & ") || `Side ${w}`;
  return typeof w === "number" ? (names[w] || `Player ${w + 1}`) : String(w);
}

export function gameLabel(g, variants) {
  const v = variantOf(variants, g);
  return (g.rules && g.rules.label) || (v && v.label) || String(g.variant || "").replace(/_/g, " ");
}

// The rule set in words ("Full rules with boxes (seed 004)"); "" for a game without presets.
export function ruleSetLabel(g, variants) {
  if (g.preset_label) return g.preset_label;
  const v = variantOf(variants, g);
  if (!v) return "";
  const preset = g.preset || v.defaultPreset;
  if (!preset) return "";
  return v.presetLabels[preset] || String(preset).replace(/_/g, " ");
}

export function dateText(t) {
  if (typeof t !== "number" || !t) return "";
  return new Date(t * 1000).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
}
function isoDate(t) { return typeof t === "number" && t ? new Date(t * 1000).toISOString() : ""; }

// "Ana 112 · Ben 45" (Gin-Go: the hands each side won).
export function scoreText(g, names, variants) {
  const sides = sidesOf(g, variants);
  const nums = (xs) => Array.isArray(xs) && xs.length && xs.every(x => typeof x === "number") ? xs : null;
  if (sides) {
    const won = nums(g.scores);
    if (!won) return "";
    const side = (k) => (sides[String(k)] || []).map(s => names[s]).join(" & ") || `Side ${k}`;
    return `Hands won: ${side(1)} ${won[0]} · ${side(2)} ${won[1]}`;
  }
  if (isPartnership(g)) {  // per team: its two players and its total
    const team = nums(g.team_scores) || [0, 1].map(t => (nums(g.final) || nums(g.scores) || [])[teamOf(g, t)[0]] ?? 0);
    const final = g.finished && nums(g.final) ? [0, 1].map(t => g.final[teamOf(g, t)[0]]) : team;
    return [0, 1].map(t => `${teamOf(g, t).map(s => names[s]).join(" & ")} ${final[t] ?? 0}`).join(" · ");
  }
  const totals = nums(g.final) || nums(g.scores);
  if (!totals) return "";
  return names.map((n, i) => `${n} ${totals[i] ?? 0}`).join(" · ");
}

export function resultText(g, names, variants) {
  if (g.damaged) return "damaged: read-only";
  if (!g.finished) return g.hands_played ? `in play, ${g.hands_played} hand${g.hands_played === 1 ? "" : "s"}` : "in play";
  const w = winnerName(g, names, variants);
  return w ? `won by ${w}` : "finished, no winner";
}

// One game as a list item: a link to its sheet.
export function gameItem(g, variants) {
  const names = playerNames(g);
  const rs = ruleSetLabel(g, variants);
  const score = scoreText(g, names, variants);
  return h("li", { dataset: { game: g.id } }, h("a", { href: `#/game/${encodeURIComponent(g.id)}`, class: "game-link" },
    h("span", { class: "game-title" }, h("strong", null, gameLabel(g, variants)), rs ? h("span", { class: "muted rule-set" }, rs) : null),
    h("span", { class: "game-players" }, names.join(" · ")),
    score ? h("span", { class: "game-score" }, score) : null,
    h("span", { class: "muted game-when" }, h("time", { datetime: isoDate(g.created) }, dateText(g.created)),
      ` · ${resultText(g, names, variants)}`),
    remoteText(g) ? h("span", { class: "muted game-remote" }, remoteText(g)) : null));
}
