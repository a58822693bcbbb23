// The 52-space board: 4 columns x 13 rows, row 1 at side 1's edge (drawn at the bottom,
// as side 1 sees it), space = (row - 1) * 4 + (column - 1). Once the suit rows are set,
// each side's labels are drawn in its own frame: side 1's A-K up the left and its suits
// along the bottom, side 2's down the right (its own left, from across the table) and
// along the top.

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

// `frames` labels the board in each side's frame; `pick` ({side, selected: Set of
// spaces, onPick}) makes the spaces the cards of side `side` to choose from (the card
// grid of a play: each card is the space its chip goes on); `compact` draws it small,
// without the legend, to sit above the entry.
export function boardView(board, { names, sim, onTap, frames, pick, compact }) {
  const wrap = document.createElement("div");
  wrap.className = "board-wrap" + (compact ? " compact" : "");
  const grid = document.createElement("div");
  const labels = frameLabels(frames);
  grid.className = "board" + (sim && !pick ? " sim" : "") + (labels ? " framed" : "") + (pick ? " pick" : "") + (compact ? " compact" : "");
  grid.setAttribute("role", "grid");
  grid.setAttribute("aria-label", pick ? `cards of side ${pick.side}, as the spaces their chips go on (side 1 at the bottom)` : "board, side 1 at the bottom");
  const links = board.links || {};
  const inLink = new Set([...(links["1"] || []), ...(links["2"] || [])]);
  const edge = (side) => {
    // a side's suit row: side 2's along the top, side 1's along the bottom
    const cells = [document.createElement("span")];
    for (let col = 1; col <= 4; col++) {
      const lab = document.createElement("span");
      const suit = labels.cols[side][col];
      lab.className = `board-suit side-${side} suit-${suit}`;
      lab.textContent = SUIT_SYMBOL[suit] || "";
      lab.setAttribute("aria-label", `side ${side}: ${SUIT_WORD[suit] || ""}`);
      cells.push(lab);
    }
    cells.push(document.createElement("span"));
    for (const c of cells) { if (!c.className) c.className = "board-corner"; grid.appendChild(c); }
  };
  if (labels) edge("2");
  const bySide = pick ? String(pick.side) : "1";
  for (let row = 13; row >= 1; row--) {
    const lab = document.createElement("span");
    lab.className = "board-row" + (labels ? " side-1" : "");
    lab.textContent = labels ? labels.rows["1"][row] : row;
    grid.appendChild(lab);
    for (let col = 1; col <= 4; col++) {
      const i = (row - 1) * 4 + (col - 1);
      const st = spaceState(board.expected, board.sensed, i);
      const tappable = pick || sim;
      const el = document.createElement(tappable ? "button" : "span");
      if (tappable) el.type = "button";
      el.className = "space " + st.state;
      el.dataset.space = String(i);
      el.dataset.chip = st.chip;
      el.dataset.state = st.state;
      if (inLink.has(i)) el.classList.add("link");
      const chip = document.createElement("span");
      chip.className = "chip side-" + st.chip;
      el.appendChild(chip);
      const card = labels ? labels.cards[bySide][i] : "";
      if (pick && card) {
        const name = document.createElement("span");
        name.className = "space-card suit-" + card.slice(-1);
        name.textContent = prettyCard(card);
        el.appendChild(name);
        el.dataset.card = card;
        el.setAttribute("aria-pressed", pick.selected.has(i) ? "true" : "false");
      }
      let label = pick && card ? `${prettyCard(card)}, space ${i} (row ${row}, column ${col}): ` : `space ${i} (row ${row}, column ${col}): `;
      label += st.chip === "." ? "empty" : `side ${st.chip}`;
      if (st.state === "pending") label += ", place this chip";
      if (st.state === "bump") label += `, bump: side ${st.want} goes here`;
      if (st.state === "unexpected") label += ", unexpected chip";
      el.setAttribute("aria-label", label);
      el.title = label;
      if (pick) el.addEventListener("click", () => pick.onPick(i));
      else if (sim && onTap) el.addEventListener("click", () => onTap(i));
      grid.appendChild(el);
    }
    const right = document.createElement("span");
    right.className = "board-row" + (labels ? " side-2" : "");
    right.textContent = labels ? labels.rows["2"][row] : "";
    grid.appendChild(right);
  }
  if (labels) edge("1");
  wrap.appendChild(grid);
  if (compact) return wrap;

  const legend = document.createElement("div");
  legend.className = "board-sides";
  for (const side of ["1", "2"]) {
    const p = document.createElement("p");
    p.className = "side-line side-" + side;
    p.dataset.side = side;
    const who = names && names[side] ? names[side] : `Side ${side}`;
    const dist = board.link_distance ? board.link_distance[side] : null;
    let text;
    if (links[side]) text = `${who}: linked A row to K row`;
    else if (dist === null || dist === undefined) text = `${who}: no path yet`;
    else text = `${who}: needs ${dist} more chip${dist === 1 ? "" : "s"}`;
    const dot = document.createElement("span");
    dot.className = "chip side-" + side;
    p.append(dot, " ", text);
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
  legend.appendChild(h2p("board-key", "Faded pulsing chip: place it · orange edge: bump the chip there · red square: unexpected chip · gold outline: link"));
  wrap.appendChild(legend);
  return wrap;
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
