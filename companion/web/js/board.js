// The 52-space board: 4 columns x 13 rows, row 1 at side 1's edge (drawn at the bottom,
// as side 1 sees it), space = (row - 1) * 4 + (column - 1). Once the suit rows are set,
// each side's labels are drawn in its own frame: side 1's A-K up the left and its suits
// along the bottom, side 2's down the right (its own left, from across the table) and
// along the top.

import { announce } from "./announce.js";

const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_WORD = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const prettyCard = (c) => { const m = /^(10|[A2-9JQK])([SHDC])$/.exec(c || ""); return m ? m[1] + SUIT_SYMBOL[m[2]] : (c || ""); };

// The card on each space for each side, and each side's rank per row and suit per
// column, from the game's frames ({"1": {"AS": 0, ...}, "2": {...}}); null before set-up.
export function frameLabels(frames) {
  if (!frames || !frames["1"] || !frames["2"]) return null;
  const out = { cards: {}, rows: {}, cols: {} };
  for (const side of ["1", "2"]) {
    const cards = new Array(52).fill("");
    const rows = new Array(14).fill("");
    const cols = new Array(5).fill("");
    for (const [card, space] of Object.entries(frames[side])) {
      const m = /^(10|[A2-9JQK])([SHDC])$/.exec(card);
      if (!m || space < 0 || space > 51) continue;
      cards[space] = card;
      rows[Math.floor(space / 4) + 1] = m[1];
      cols[(space % 4) + 1] = m[2];
    }
    out.cards[side] = cards; out.rows[side] = rows; out.cols[side] = cols;
  }
  return out;
}

export function spaceState(expected, sensed, i) {
  const e = expected ? expected[i] : ".";
  const s = sensed == null ? null : sensed[i];
  if (s === null) return { chip: e, state: e === "." ? "empty" : "agreed-unsensed" };
  if (e === s) return { chip: s, state: s === "." ? "empty" : "agreed" };
  if (e !== "." && s === ".") return { chip: e, state: "pending" };
  if (e !== "." && s !== ".") return { chip: s, want: e, state: "bump" };
  return { chip: s, state: "unexpected" };
}

// Card words for a screen reader: "7H" -> "7 of hearts", "KS" -> "king of spades".
const RANK_WORDS = { A: "ace", J: "jack", Q: "queen", K: "king" };
export function cardWords(name) {
  const m = /^(10|[A2-9JQK])([SHDC])$/.exec(name || "");
  return m ? `${RANK_WORDS[m[1]] || m[1]} of ${SUIT_WORD[m[2]]}` : (name || "");
}

// What a screen reader says for one space: its card in the frame of the side whose chip
// is there (both sides' cards when it is empty), its state and the link it is part of.
// `cardOf(side)` is that side's card on the space ("" before the set-up).
export function spaceLabel(st, space, cardOf, linkOf) {
  const row = Math.floor(space / 4) + 1, col = (space % 4) + 1;
  const card = (side) => { const c = cardOf(String(side)); return c ? cardWords(c) : ""; };
  let text;
  if (st.state === "empty") {
    text = card("1") ? `${card("1")} for side 1, ${card("2")} for side 2, empty` : "empty";
  } else if (st.state === "pending") {
    text = `${card(st.chip) || "this space"}: place a side ${st.chip} chip here`;
  } else if (st.state === "bump") {
    text = `${card(st.chip) || "this space"}, side ${st.chip} chip, bump: side ${st.want} goes here` + (card(st.want) ? ` (${card(st.want)})` : "");
  } else if (st.state === "unexpected") {
    text = `side ${st.chip} chip nobody asked for, unexpected` + (card(st.chip) ? ` (on side ${st.chip}'s ${card(st.chip)})` : "");
  } else {
    text = `${card(st.chip) || "this space"}, side ${st.chip} chip`;
  }
  if (linkOf) text += `, part of side ${linkOf}'s link`;
  return `${text}; row ${row}, column ${col}`;
}

// The space with the keyboard's focus, per kind of board (the board itself, a picker):
// the board is one tab stop and the arrow keys move (a roving tabindex).
const focusSpace = { board: 0, pick: 0 };

// `frames` labels the board in each side's frame; `pick` ({side, selected: Set of
// spaces, onPick}) makes the spaces the cards of side `side` to choose from (the card
// grid of a play: each card is the space its chip goes on); `compact` draws it small,
// without the legend, to sit above the entry; `own` ({side, targets: Set of spaces})
// draws the cards of side `side` on the spaces (read only: the Play screen's board, in
// the player's frame) and marks `targets`, the spaces the chips of the play chosen go to.
//
// For a screen reader it is a grid: 13 rows (and the suit rows of both sides as column
// headers once they are set), each with its rank for side 1 (and side 2) as row headers
// and 4 cells named by spaceLabel.
export function boardView(board, { names, sim, onTap, frames, pick, compact, own }) {
  const kind = pick ? "pick" : "board";
  const hadFocus = !!(document.activeElement && document.activeElement.closest && document.activeElement.closest(`.board[data-kind="${kind}"]`));
  const wrap = document.createElement("div");
  wrap.className = "board-wrap" + (compact ? " compact" : "");
  const grid = document.createElement("div");
  const labels = frameLabels(frames);
  grid.className = "board" + (sim && !pick ? " sim" : "") + (labels ? " framed" : "") + (pick ? " pick" : "") + (compact ? " compact" : "");
  grid.dataset.kind = kind;
  grid.setAttribute("role", "grid");
  grid.setAttribute("aria-label", pick ? `cards of side ${pick.side}, as the spaces their chips go on (side 1 at the bottom); arrow keys move`
    : "board, side 1 at the bottom; arrow keys move between spaces");
  const links = board.links || {};
  const linkOf = new Map();
  for (const side of ["1", "2"]) for (const sp of links[side] || []) linkOf.set(sp, side);
  const line = () => { const r = document.createElement("div"); r.className = "board-line"; r.setAttribute("role", "row"); grid.appendChild(r); return r; };
  const corner = (r) => { const c = document.createElement("span"); c.className = "board-corner"; c.setAttribute("aria-hidden", "true"); r.appendChild(c); };
  const edge = (side) => {
    // a side's suit row: side 2's along the top, side 1's along the bottom
    const r = line();
    corner(r);
    for (let col = 1; col <= 4; col++) {
      const lab = document.createElement("span");
      const suit = labels.cols[side][col];
      lab.className = `board-suit side-${side} suit-${suit}`;
      lab.setAttribute("role", "columnheader");
      lab.setAttribute("aria-label", `side ${side}: ${SUIT_WORD[suit] || ""}`);
      lab.textContent = SUIT_SYMBOL[suit] || "";
      r.appendChild(lab);
    }
    corner(r);
  };
  if (labels) edge("2");
  const bySide = pick ? String(pick.side) : own ? String(own.side) : "1";
  const cells = new Map();
  const rowHead = (r, side, row) => {
    const lab = document.createElement("span");
    lab.className = "board-row" + (labels ? ` side-${side}` : "");
    const text = labels ? labels.rows[side][row] : (side === "1" ? String(row) : "");
    if (!text) { lab.setAttribute("aria-hidden", "true"); r.appendChild(lab); return; }
    lab.setAttribute("role", "rowheader");
    lab.setAttribute("aria-label", labels ? `side ${side}: ${RANK_WORDS[text] || text}` : `row ${row}`);
    lab.textContent = text;
    r.appendChild(lab);
  };
  for (let row = 13; row >= 1; row--) {
    const r = line();
    rowHead(r, "1", row);
    for (let col = 1; col <= 4; col++) {
      const i = (row - 1) * 4 + (col - 1);
      const st = spaceState(board.expected, board.sensed, i);
      const tappable = pick || sim;
      const el = document.createElement(tappable ? "button" : "span");
      let cell = el;
      if (tappable) {
        el.type = "button";
        cell = document.createElement("span");
        cell.className = "space-cell";
        cell.appendChild(el);
      }
      cell.setAttribute("role", "gridcell");
      el.className = "space " + st.state;
      el.dataset.space = String(i);
      el.dataset.chip = st.chip;
      el.dataset.state = st.state;
      if (st.want) el.dataset.want = st.want;
      if (linkOf.has(i)) el.classList.add("link");
      const chip = document.createElement("span");
      chip.className = "chip side-" + st.chip;
      chip.setAttribute("aria-hidden", "true");
      el.appendChild(chip);
      const card = labels ? labels.cards[bySide][i] : "";
      let label = spaceLabel(st, i, (side) => labels ? labels.cards[side][i] : "", linkOf.get(i));
      if ((pick || own) && card) {
        const name = document.createElement("span");
        name.className = "space-card suit-" + card.slice(-1);
        name.textContent = prettyCard(card);
        el.appendChild(name);
        el.dataset.card = card;
        if (pick) el.setAttribute("aria-pressed", pick.selected.has(i) ? "true" : "false");
        // the words on the button first (what a voice-control user says), then the space
        label = `${prettyCard(card)}, ${cardWords(card)}; on the board: ${label}`;
      }
      if (own && own.targets.has(i)) {
        el.classList.add("target");
        el.dataset.target = "1";
        label += `; your chip goes here`;
      }
      el.setAttribute("aria-label", label);
      el.title = label;
      el.tabIndex = i === focusSpace[kind] ? 0 : -1;
      el.addEventListener("focus", () => { focusSpace[kind] = i; });
      if (pick) el.addEventListener("click", () => pick.onPick(i));
      else if (sim && onTap) el.addEventListener("click", () => onTap(i));
      cells.set(i, el);
      r.appendChild(cell);
    }
    rowHead(r, "2", row);
  }
  if (labels) edge("1");
  grid.addEventListener("keydown", (ev) => {
    const at = Number(ev.target && ev.target.dataset ? ev.target.dataset.space : NaN);
    if (!Number.isInteger(at) || ev.altKey || ev.metaKey) return;
    let row = Math.floor(at / 4) + 1, col = (at % 4) + 1;
    // Row 13 is drawn at the top: up goes towards it.
    if (ev.key === "ArrowUp") row = Math.min(13, row + 1);
    else if (ev.key === "ArrowDown") row = Math.max(1, row - 1);
    else if (ev.key === "ArrowLeft") col = Math.max(1, col - 1);
    else if (ev.key === "ArrowRight") col = Math.min(4, col + 1);
    else if (ev.key === "Home") { col = 1; if (ev.ctrlKey) row = 13; }
    else if (ev.key === "End") { col = 4; if (ev.ctrlKey) row = 1; }
    else if (ev.key === "PageUp") row = 13;
    else if (ev.key === "PageDown") row = 1;
    else return;
    ev.preventDefault();
    const next = cells.get((row - 1) * 4 + (col - 1));
    if (!next) return;
    for (const c of cells.values()) c.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
  wrap.appendChild(grid);
  // A redraw (a live update, a tap) keeps the keyboard where it was.
  if (hadFocus) queueMicrotask(() => { const c = cells.get(focusSpace[kind]); if (c && c.isConnected && !grid.contains(document.activeElement)) c.focus(); });
  if (compact) return wrap;
  for (const text of boardNews(board, { names, labels })) announce(text);

  const legend = document.createElement("div");
  legend.className = "board-sides";
  for (const side of ["1", "2"]) {
    const p = document.createElement("p");
    p.className = "side-line side-" + side;
    p.dataset.side = side;
    const dot = document.createElement("span");
    dot.className = "chip side-" + side;
    dot.setAttribute("aria-hidden", "true");
    p.append(dot, " ", sideVerdict(board, side, names));
    legend.appendChild(p);
  }
  const counts = { pending: 0, bump: 0, unexpected: 0 };
  for (let i = 0; i < 52; i++) {
    const st = spaceState(board.expected, board.sensed, i).state;
    if (st in counts) counts[st]++;
  }
  const notes = [];
  if (board.note) notes.push(board.note);
  else if (board.sensed == null) notes.push("sensors offline: showing the expected board");
  if (counts.pending) notes.push(`${counts.pending} chip${counts.pending === 1 ? "" : "s"} to place`);
  if (counts.bump) notes.push(`${counts.bump} to bump`);
  if (counts.unexpected) notes.push(`${counts.unexpected} unexpected`);
  if (notes.length) {
    const n = document.createElement("p");
    n.className = "board-notes";
    n.textContent = notes.join(" · ");
    legend.appendChild(n);
  }
  const side1 = names && names["1"] ? `${names["1"]} (side 1)` : "Side 1";
  const side2 = names && names["2"] ? `${names["2"]} (side 2)` : "side 2";
  legend.appendChild(h2p("board-key", `${side1}: round chip marked 1 · ${side2}: square chip marked 2 · faded pulsing chip: place it · dashed edge: bump the chip there · red square: unexpected chip · gold outline: link`));
  wrap.appendChild(legend);
  return wrap;
}

// "Eve: needs 3 more chips", "Fox: linked A row to K row" (the legend).
export function sideVerdict(board, side, names) {
  const links = (board && board.links) || {};
  const who = names && names[side] ? names[side] : `Side ${side}`;
  const dist = board && board.link_distance ? board.link_distance[side] : null;
  if (links[side]) return `${who}: linked A row to K row`;
  if (dist === null || dist === undefined) return `${who}: no path yet`;
  return `${who}: needs ${dist} more chip${dist === 1 ? "" : "s"}`;
}

// What changed on the board since it was last drawn, in words: a link made or broken,
// chips to bump, chips to place (after a meld, a hit or a capture), an unexpected chip.
// The first drawing of a board (another screen, another game) only sets the baseline,
// and a redraw of the same board says nothing.
let seen = null;
export function boardNews(board, { names, labels } = {}) {
  const key = `${board.game || ""}|${labels ? labels.cards["1"].join("") : ""}`;
  const now = { key, linked: {}, bump: new Set(), pending: new Set(), unexpected: new Set() };
  for (const side of ["1", "2"]) now.linked[side] = !!(board.links && board.links[side] && board.links[side].length);
  const states = [];
  for (let i = 0; i < 52; i++) {
    const st = spaceState(board.expected, board.sensed, i);
    states.push(st);
    if (st.state === "bump" || st.state === "pending" || st.state === "unexpected") now[st.state].add(i);
  }
  const before = seen;
  seen = now;
  if (!before || before.key !== key) return [];
  const who = (side) => (names && names[side]) || `side ${side}`;
  const cardsOf = (spaces, sideOf) => spaces.map(i => {
    const c = labels ? labels.cards[sideOf(i)][i] : "";
    return c ? cardWords(c) : `row ${Math.floor(i / 4) + 1} column ${(i % 4) + 1}`;
  });
  const news = [];
  for (const side of ["1", "2"]) {
    if (now.linked[side] && !before.linked[side]) news.push(`Gin! ${who(side)} linked the A row to the K row`);
    if (!now.linked[side] && before.linked[side]) news.push(`${who(side)}'s link is broken`);
  }
  const fresh = (name) => [...now[name]].filter(i => !before[name].has(i));
  const bumps = fresh("bump");
  if (bumps.length) {
    news.push(`Bump ${bumps.length} chip${bumps.length === 1 ? "" : "s"} over to side ${states[bumps[0]].want}: ${cardsOf(bumps, i => states[i].want).join(", ")}`);
  }
  const pending = fresh("pending");
  for (const side of ["1", "2"]) {
    const mine = pending.filter(i => states[i].chip === side);
    if (mine.length) news.push(`Place ${mine.length} side ${side} chip${mine.length === 1 ? "" : "s"} for ${who(side)}: ${cardsOf(mine, () => side).join(", ")}`);
  }
  const odd = fresh("unexpected");
  if (odd.length) news.push(`${odd.length} unexpected chip${odd.length === 1 ? "" : "s"} on the board: ${cardsOf(odd, i => states[i].chip).join(", ")}`);
  return news;
}

function h2p(cls, text) {
  const p = document.createElement("p");
  p.className = "help " + cls;
  p.textContent = text;
  return p;
}

export function linkedSides(board) {
  const l = (board && board.links) || {};
  return ["1", "2"].filter(s => Array.isArray(l[s]) && l[s].length);
}

// The chip a tap on the simulator puts next: empty -> side 1 -> side 2 -> empty.
export function nextSimChip(board, space) {
  const now = board && board.sensed ? board.sensed[space] : ".";
  return now === "." ? 1 : now === "1" ? 2 : null;
}

// Simulator taps not yet seen in the sensed board (the service debounces like real
// sensors, so its echo lags a little): they are overlaid for up to 3 seconds, so a
// quick second tap on a space cycles from what the player sees.
const simPending = new Map();

export function noteSimTap(space, side) {
  simPending.set(space, { chip: side === null ? "." : String(side), until: Date.now() + 3000 });
}

export function withPending(board) {
  if (!board || !simPending.size) return board;
  const base = (board.sensed || ".".repeat(52)).split("");
  const now = Date.now();
  for (const [space, p] of simPending) {
    if (now > p.until || base[space] === p.chip) simPending.delete(space);
    else base[space] = p.chip;
  }
  return Object.assign({}, board, { sensed: base.join("") });
}
