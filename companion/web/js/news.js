// Live events in words, for the live region: a hand or a play entered on another phone
// (for the game on screen), and the end of a match (any game). Each event comes once
// over the live channel, so each is said once; replayed events (a reconnect catching up)
// and this phone's own writes are not news. How a hand ended is said in the game's own
// words, as GET /api/v1/variants gives them (its kind_words, gin_word and big_word; the
// rummy words below only where the game has none), never by comparing game names.

import { cardWords } from "./board.js";
import { isOwnWrite } from "./announce.js";

const KIND_WORDS = {
  gin: "went gin", big_gin: "went big gin", knock: "knocked", undercut: "knocked and was undercut",
  void: "the stock ran out", showdown: "showdown",
};

// How a hand of `variant` (an entry of the page's variants, or null) ended: `own` is the
// game's own word for it (said after the ender's name and a colon, as the sheet does),
// `verb` the rummy phrase said after the name.
function kindWords(kind, variant) {
  const v = variant || {};
  const own = (v.kindWords || {})[kind];
  if (own) return { own };
  if (kind === "gin" && v.ginWord) return { verb: `went ${v.ginWord}` };
  if (kind === "big_gin" && v.bigWord) return { verb: `went ${v.bigWord}` };
  return { verb: KIND_WORDS[kind] || null };
}

const finished = new Map();   // game id -> finished as last seen

function namesOf(game) {
  return (game.players || []).map((p, i) => typeof p === "string" ? p : (p && p.name) || `Player ${i + 1}`);
}

// A game whose variant says its winner is a side (side_wins) names the side's players,
// by the seats the variant gives each side; the others name a seat (or a team).
function winnerWords(game, variant) {
  const names = namesOf(game);
  const w = game.winner;
  if (w === null || w === undefined) return null;
  if (variant && variant.sideWins) {
    const seats = ((variant.sides || {})[String(names.length)] || {})[String(w)] || [];
    const who = seats.map(s => names[s]).filter(Boolean).join(" and ") || `Side ${w}`;
    return `${who} win${seats.length > 1 ? "" : "s"} the ${variant.matchWord || "game"}`;
  }
  if (isTeamGame(game)) return `${teamWords(names, w)} win the match`;
  return `${names[w] ?? `Player ${Number(w) + 1}`} wins the match`;
}

// A game played by teams (Gin Rummy's partnership; its summary line says team_play): its
// winner (of the match and of a hand) is a team, 0 or 1.
function isTeamGame(game) { return game.team_play === true; }
function teamWords(names, t) { return [[0, 2], [1, 3]][Number(t)].map(s => names[s]).join(" and "); }

function cardList(cards) { return (cards || []).map(cardWords).join(", "); }

function eventWords(ev, game, variant) {
  const names = namesOf(game);
  const p = ev.payload || {};
  const name = (seat) => names[seat] ?? `Player ${Number(seat) + 1}`;
  if (ev.type === "hand") {
    const r = p.result || {};
    const n = game.hands_played ? `Hand ${game.hands_played}` : "A hand";
    if (isTeamGame(game) || (r.extra && r.extra.team_mode)) {
      const t = r.winner;
      const pts = t !== null && t !== undefined && Array.isArray(r.points) ? `: ${teamWords(names, t)} score ${r.points[t]}` : ": no team scores";
      return `${n} entered on another phone${pts}`;
    }
    const k = kindWords(r.kind, variant);
    const said = k.own || k.verb;
    const what = r.ender === null || r.ender === undefined ? (said || r.kind || "scored")
      : k.own ? `${name(r.ender)}: ${k.own}` : `${name(r.ender)} ${said || r.kind || "ended it"}`;
    const pts = Array.isArray(r.points) && r.winner !== null && r.winner !== undefined && typeof r.points[r.winner] === "number"
      ? `; ${name(r.winner)} scores ${r.points[r.winner]}` : "";
    return `${n} entered on another phone: ${what}${pts}`;
  }
  if (ev.type === "hand_corrected") return "A hand was corrected on another phone";
  if (ev.type === "undo") return "The last entry was undone on another phone";
  if (ev.type === "redo") return "An undone entry was redone on another phone";
  if (ev.type === "action") {
    const a = p.action || {};
    if (a.type === "meld") return `${name(a.seat)} melded ${cardList(a.cards)} (entered on another phone)`;
    if (a.type === "hit") return `${name(a.seat)} laid off ${cardList(a.cards)} onto meld ${a.meld} (entered on another phone)`;
    if (a.type === "go_out") {
      const got = Object.values(a.captured || {}).flat();
      return `${name(a.seat)} went out${got.length ? `, capturing ${cardList(got)}` : ""} (entered on another phone)`;
    }
    if (a.type === "setup") return "The suit rows were set on another phone";
    if (a.type === "new_hand") return "The next hand was dealt (entered on another phone)";
    if (a.type === "pass") return `${name(a.seat)} drew and discarded, no meld (entered on another phone)`;
    if (a.type === "stock_exhausted") return "The stock ran out (entered on another phone)";
  }
  return null;
}

// The words for one live message, or [] (`shownGame`: the id of the game on screen;
// `variants`: the page's variants, normVariants' list, or null while they are loading).
export function liveNews(msg, shownGame, variants = null) {
  if (!msg) return [];
  if (msg.type === "snapshot") {
    for (const g of msg.games || []) finished.set(g.id, !!g.finished);
    return [];
  }
  if (msg.type !== "event" || msg.replay || !msg.game) return [];
  const ev = msg.event || {};
  const game = msg.game;
  const out = [];
  const variant = (variants || []).find(v => v.name === game.variant) || null;
  if (ev.game_id === shownGame && !isOwnWrite(ev.client_id)) {
    const words = eventWords(ev, game, variant);
    if (words) out.push(words);
  }
  const was = finished.get(game.id);
  finished.set(game.id, !!game.finished);
  if (game.finished && was !== true && ["hand", "hand_corrected", "action", "undo", "redo"].includes(ev.type)) {
    const w = winnerWords(game, variant);
    out.push(w ? `Match over: ${w}` : "Match over: a tie");
  }
  return out;
}
