// Gin-Go: suit-row set-up, melds and hits with joker designations, going out with the
// captured cards, and the live board with its links.

import { plainError } from "./words.js";
import * as api from "./api.js";
import { h, fieldError, showError, toast, loadDraft, saveDraft, clearDraft, seg, rulesOf } from "./ui.js";
import { deckFrom, naturalsOf, parseHand, parseCard, pretty, cardChip, cardGrid } from "./cards.js";
import { boardView, nextSimChip, noteSimTap, withPending } from "./board.js";
import { namesOf } from "./rummy_sheet.js";
import { playEntry } from "./gingo_play.js";
import { playLog, playText, WIN_REASON } from "./gingo_log.js";
import { undoButtons, undoOrRedo } from "./undo.js";
import { flipForDeal } from "./flip.js";

const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
let deck = deckFrom(null);  // the game's own deck, set when a game is mounted

// Each side's players, by the seats the companion gives each side (rules.sides).
export function sideNames(names, sides) {
  const seats = sides || {};
  const join = (k) => (seats[k] || []).map(s => names[s]).filter(Boolean).join(" & ");
  return { "1": join("1") || "Side 1", "2": join("2") || "Side 2" };
}

function stateOf(game) { return Object.assign({}, game, game.state || {}); }

// Where in `reveal` the fourth suit shows, and how many jokers came before it.
export function readReveal(cards) {
  const seen = [];
  let jokers = 0;
  for (const c of cards) {
    if (c.startsWith("JK")) { if (seen.length < 4) jokers++; continue; }
    const s = c.slice(-1);
    if (!seen.includes(s)) seen.push(s);
    if (seen.length === 4) break;
  }
  return { order: seen.join(""), jokers, complete: seen.length === 4 };
}

export async function mountGingo(main, game, ctx) {
  let g = stateOf(game);
  const rules = rulesOf(game);
  deck = deckFrom(rules.deck);
  const names = namesOf(g);
  const sides = sideNames(names, rules.sides);
  const key = `game.${g.id}`;
  // the set-up's dealer starts as the one the game was made with (a rematch passes the deal on)
  const draft = loadDraft(key, { tab: "meld", seat: 0, cards: "", meld: null, desig: {}, captured: {}, jokers: {},
    setupMode: "reveal", reveal: "", format: "normal", secret1: "", secret2: "", rows1: "SHDC", rows2: "SHDC",
    dealer: Number(game.dealer) || 0, capSeat: null, typed: false, turnKey: null, handKey: null });
  const save = () => saveDraft(key, draft);

  const header = h("section", { class: "panel" });
  const boardBox = h("section", { class: "panel", id: "gingo-board" });
  const form = h("section", { class: "panel entry no-print", id: "gingo-form" });
  const meldsBox = h("section", { class: "panel", id: "melds" });
  const playsBox = h("section", { class: "panel", id: "plays" });
  const historyBox = h("section", { class: "panel", id: "history" });
  const tools = h("section", { class: "panel tools no-print" });
  main.append(header, boardBox, form, meldsBox, playsBox, historyBox, tools);
  let onBoard = [];   // the entry's compact board, redrawn with every board view
  let flipBox = null;  // the flip for the deal, while the game is being set up
  const boardErr = fieldError("board-error");

  function drawHeader() {
    const phase = { setup: "Set-up: suit rows", play: `Hand ${g.hand ?? 1}: in play`, hand_over: "Hand over", game_over: "Game over" }[g.phase] || g.phase || "";
    const rows = g.suit_rows ? ["1", "2"].map(s => h("p", { class: "suit-row side-" + s }, `${sides[s]}: `, h("span", { class: "suits" }, (g.suit_rows[s] || "").split("").map(x => SUIT_SYMBOL[x] || x).join(" ")))) : [];
    const why = g.state && g.state.win_reason;
    const winner = g.winner !== null && g.winner !== undefined ? h("div", { class: "winner", id: "winner" }, `${sides[String(g.winner)]} win${names.length === 4 ? "" : "s"} the game!${why ? ` (${String(why).replace(/_/g, " ")})` : ""}`,
      why && WIN_REASON[why] ? h("small", { class: "win-why" }, WIN_REASON[why]) : null) : null;
    const won = Array.isArray(g.scores) && (g.hands || []).length
      ? h("p", { class: "muted", id: "hands-won" }, `Hands won: ${sides["1"]} ${g.scores[0]} · ${sides["2"]} ${g.scores[1]}`) : null;
    // during a hand the board carries the suit rows: the header stays one line
    const inPlay = g.phase === "play" && !g.finished;
    header.classList.toggle("compact-head", inPlay);
    header.replaceChildren(...[h("h1", null, `${rules.label} `, h("small", null, `· ${phase}`)), winner, ...(inPlay ? [] : rows), inPlay ? null : won].filter(Boolean));
  }

  let latest = null;
  function paintBoard(board) {
    if (board.sensed !== null) board = withPending(board);
    // A finished game shows its own record's links (the winning capture included), while
    // the chips still to place on the real board stay marked.
    if (g.finished) board = Object.assign({}, board, { links: g.links, link_distance: g.link_distance });
    latest = board;
    for (const f of onBoard) f();
    const sim = ctx.isSim();
    boardBox.replaceChildren(...[h("h2", null, "Board"), boardView(board, { names: sides, sim, onTap: tap, frames: g.frames }), boardErr,
      sim ? h("p", { class: "help no-print" }, "Simulated board: tap a space to put a side 1 chip, again for side 2, again to lift it.") : null].filter(Boolean));
    ctx.showGin(board, sides);
  }
  async function drawBoard() {
    let board = await ctx.loadBoard();
    // Another Gin-Go game may be the one the board follows: then show this game's own board.
    // The live board is this game's only while the board follows it; otherwise (another
    // game, or a finished game's chips cleared off) this game's own record is shown.
    if (!board || !board.expected || board.game !== g.id) {
      board = { expected: g.board || ".".repeat(52), sensed: null, links: g.links, link_distance: g.link_distance,
        note: board && board.game ? "The board follows another game: this is this game's record."
          : board && g.finished ? "The board was cleared: this is the game's record." : null };
    }
    paintBoard(board);
  }
  async function tap(space) {
    const next = nextSimChip(latest, space);
    try {
      await ctx.write("POST", "/api/v1/board/sim", { space, side: next }, { clientId: false });
      showError(boardErr, "");
      noteSimTap(space, next);
      paintBoard(latest);
    } catch (e) { showError(boardErr, api.says(e)); }
  }

  // ---- forms ---------------------------------------------------------------------------------
  const formErr = fieldError("action-error");
  // Chip cap: when a side has fewer chips than a play needs, the engine refuses it and
  // the players choose which cards' chips are forfeited (sent again with "skip").
  const forfeitBox = h("div", { id: "forfeit-box", class: "forfeit", hidden: true });
  let forfeit = null;   // {action, errEl, cards, supply, need, chosen: Set}

  function drawForfeit() {
    if (!forfeit) { forfeitBox.hidden = true; forfeitBox.replaceChildren(); return; }
    const f = forfeit;
    const short = f.need - f.supply;
    const side = sides[String(f.side)] || `Side ${f.side}`;
    const err = fieldError("forfeit-error");
    const buttons = f.cards.map(c => h("button", { type: "button", class: "cell " + (c.match(/[SHDC]$/) ? "suit-" + c.slice(-1) : ""),
      "aria-pressed": f.chosen.has(c) ? "true" : "false", dataset: { card: c }, "aria-label": `forfeit ${pretty(c)}`,
      onclick: () => { if (f.chosen.has(c)) f.chosen.delete(c); else f.chosen.add(c); drawForfeit(); } }, pretty(c)));
    forfeitBox.replaceChildren(
      h("h2", null, "Not enough chips"),
      h("p", { id: "forfeit-text" }, `${side}: ${f.supply === 1 ? "1 chip" : `${f.supply} chips`} left, but this play needs ${f.need}. ` +
        `Choose ${short === 1 ? "the card" : `${short} cards`} whose chip${short === 1 ? " is" : "s are"} forfeited (not placed):`),
      h("div", { class: "forfeit-cards", role: "group", "aria-label": "cards to forfeit" }, ...buttons),
      err,
      h("div", { class: "actions" },
        h("button", { type: "button", class: "btn primary", id: "send-forfeit", onclick: async () => {
          if (f.chosen.size < short) { showError(err, `Choose ${short} card${short === 1 ? "" : "s"}; ${f.chosen.size} chosen.`); return; }
          const action = Object.assign({}, f.action, { skip: f.cards.filter(c => f.chosen.has(c)) });
          forfeit = null; drawForfeit();
          const res = await send(action, f.errEl);
          if (res) { f.done(); drawAll(); }
        } }, `Send, forfeiting ${short === 1 ? "1 chip" : `${short} chips`}`),
        h("button", { type: "button", class: "btn", onclick: () => { forfeit = null; drawForfeit(); } }, "Cancel")));
    forfeitBox.hidden = false;
    forfeitBox.scrollIntoView({ block: "center" });
  }

  async function send(action, errEl, done) {
    forfeit = null; drawForfeit();
    try {
      const body = { action };
      if (g.version !== undefined) body.expected_version = g.version;
      const res = await ctx.write("POST", `/api/v1/games/${g.id}/actions`, body, { queue: true, label: `${action.type} in game ${g.id}` });
      if (res && res.game) g = stateOf(res.game); else await reload();
      return res || {};
    } catch (e) {
      // A chip shortfall carries its side, supply, need and the cards needing a chip.
      const d = e instanceof api.ApiError && !action.skip ? e.details : null;
      if (d && d.reason === "chip_shortfall" && done) {
        forfeit = { action, errEl, done, side: d.side, supply: d.supply, need: d.need, cards: d.cards || [], chosen: new Set() };
        showError(errEl || formErr, "");
        drawForfeit();
        return null;
      }
      const said = plainError(api.says(e)).replace(/\bseat (\d)\b/g, (m, d) => names[Number(d)] ?? m);
      showError(errEl || formErr, e instanceof api.NetError ? "No connection: your entry is kept; send it again when online." : said);
      if (e instanceof api.ApiError && e.status === 409) await reload();
      return null;
    }
  }

  // A typed card list with its error line, an optional grid kept in step, and an
  // optional box (joker designations) redrawn from the cards as they are typed.
  function cardsField(id, label, value, onChange, errEl, withGrid, extra) {
    const parsed = parseHand(value, deck);
    const inp = h("input", { id, class: "hand-text", value, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", "aria-describedby": errEl.id, placeholder: "e.g. 7H 8H 9H or JK" });
    const gridBox = h("div", { class: "grid-box" });
    const extraBox = h("div", { class: "extra-box" });
    const redraw = (cards) => {
      if (withGrid) gridBox.replaceChildren(cardGrid({ deck, selected: cards, label, onToggle: (c) => {
        const cs = parseHand(inp.value, deck).cards;
        inp.value = (cs.includes(c) ? cs.filter(x => x !== c) : cs.concat([c])).join(" ");
        onChange(inp.value);
        redraw(parseHand(inp.value, deck).cards);
      } }));
      if (extra) extraBox.replaceChildren(...extra(cards));
    };
    inp.addEventListener("input", () => { onChange(inp.value); const p = parseHand(inp.value, deck); showError(errEl, p.error || ""); redraw(p.cards); });
    if (parsed.error) showError(errEl, parsed.error);
    redraw(parsed.cards);
    return [h("label", { for: id }, label), inp, errEl, extraBox, gridBox];
  }

  function desigFields(cards, errEl) {
    return cards.filter(c => c.startsWith("JK")).map(j => {
      const id = `desig-${j}`;
      const inp = h("input", { id, value: draft.desig[j] || "", placeholder: "e.g. 8H", autocapitalize: "characters", "aria-describedby": errEl.id });
      inp.addEventListener("input", () => { draft.desig[j] = inp.value; save(); });
      return h("div", { class: "seat-block" }, h("label", { for: id }, `${j} stands for`), inp);
    });
  }

  function readDesig(cards, errEl) {
    const out = {};
    for (const j of cards.filter(c => c.startsWith("JK"))) {
      const v = (draft.desig[j] || "").trim();
      if (!v) { showError(errEl, `Name the card ${j} stands for (rule: a joker's suit or rank must be named).`); return null; }
      try { out[j] = parseCard(v, naturalsOf(deck)); } catch (e) { showError(errEl, `${j}: ${e.message}`); return null; }
    }
    return out;
  }

  function drawForm() {
    form.classList.remove("play");
    // Set-up comes before the (still empty) board; during play the entry comes first,
    // with its own compact board, and the full board below it.
    if (g.phase === "game_over") boardBox.after(form); else boardBox.before(form);
    if (g.phase === "game_over" || (g.winner !== null && g.winner !== undefined)) {
      form.replaceChildren(h("h2", null, "The game is over"), h("p", { class: "muted" }, "Start a new game, or a rematch below."));
      return;
    }
    if (g.phase === "setup") return drawSetup();
    if (g.phase === "hand_over") {
      form.replaceChildren(h("h2", null, "Hand over: no link"), h("p", null, "The chips stay on the board. The next dealer deals."), formErr,
        h("button", { type: "button", class: "btn primary", id: "new-hand-btn", onclick: async () => { if (await send({ type: "new_hand" })) drawAll(); } }, "Deal the next hand"));
      return;
    }
    // The player follows the turn after each play (any phone's); a new hand opens on Meld.
    const handKey = `${g.hand}:${g.phase}`;
    if (draft.handKey !== handKey) {
      const fresh = draft.handKey !== null;
      Object.assign(draft, { handKey, tab: "meld", cards: "", captured: {}, jokers: {}, desig: {}, meld: null, meldPicked: false });
      if (fresh) window.scrollTo(0, 0);  // a new hand: back to the top, the entry in view
    }
    const turnKey = `${g.hand}:${g.actions}`;
    if (draft.turnKey !== turnKey && g.turn !== null && g.turn !== undefined) {
      draft.turnKey = turnKey;
      draft.seat = g.turn;
    }
    save();
    form.classList.add("play");
    onBoard = [];
    const kids = playEntry({
      g, names, sides, deck, draft, save, frames: g.frames, label: rules.label, formErr, forfeitBox, cardsField, desigFields, readDesig,
      boardNow: () => latest || { expected: g.board || ".".repeat(52), sensed: null, links: g.links },
      send, redraw: () => { forfeit = null; drawForfeit(); drawForm(); }, done: () => drawAll(),
      onBoard: (f) => onBoard.push(() => { if (latest) f(); }),
    });
    form.replaceChildren(...kids);
  }

  function drawSetup() {
    const err = fieldError("setup-error");
    const kids = [h("h2", null, "Suit rows"),
      h("p", { class: "help" }, "Turn cards one at a time until all four suits show, and type them in order. A joker before the fourth suit lets the dealer pick how the rows are set (a second joker: the opponent)."),
      h("label", { for: "dealer" }, "Dealer of the first hand")];
    const dsel = h("select", { id: "dealer" }, ...names.map((n, s) => h("option", { value: s, selected: s === draft.dealer }, n)));
    dsel.addEventListener("change", () => { draft.dealer = Number(dsel.value); save(); });
    // the flip for the deal keeps its rounds while the form is redrawn
    flipBox = flipBox || flipForDeal({ names, onDealer: (d) => {
      draft.dealer = d; save();
      const sel = document.getElementById("dealer");
      if (sel) sel.value = String(d);
      toast(`${names[d]} deals the first hand`);
    } });
    kids.push(dsel, flipBox, h("div", { class: "label" }, "How are the rows set?"), seg([["reveal", "Cards turned up"], ["direct", "Set rows directly"]], draft.setupMode, (m) => { draft.setupMode = m; save(); drawForm(); }, "set-up"));
    const letters = (id, label, val, set) => {
      const inp = h("input", { id, value: val, maxlength: 4, autocapitalize: "characters", placeholder: "SHDC", "aria-describedby": "setup-error" });
      inp.addEventListener("input", () => { set(inp.value.toUpperCase()); save(); });
      return [h("label", { for: id }, label), inp];
    };
    if (draft.setupMode === "reveal") {
      // What follows the reveal (the joker choice) is redrawn as the cards are typed.
      const formatPart = (cards) => {
        const rv = readReveal(cards);
        const out = [];
        if (rv.jokers) {
          const chooser = rv.jokers >= 2 ? "the opponent" : "the dealer";
          out.push(h("div", { class: "label" }, `A joker came up: ${chooser} chooses`),
            seg([["normal", "Normal"], ["suit_for_suit", "Suit for suit"], ["secrecy", "Secrecy"]], draft.format, (f) => { draft.format = f; save(); drawForm(); }, "format"));
          if (draft.format === "secrecy") {
            out.push(...letters("secret-1", `${sides["1"]}: order, left to right`, draft.secret1, v => { draft.secret1 = v; }));
            out.push(...letters("secret-2", `${sides["2"]}: order, left to right`, draft.secret2, v => { draft.secret2 = v; }));
          }
        }
        if (rv.complete) out.push(h("p", { class: "help" }, `Suits in order of appearance: ${rv.order.split("").map(s => SUIT_SYMBOL[s]).join(" ")}`));
        return out;
      };
      kids.push(...cardsField("reveal", "Cards turned up, in order", draft.reveal, (v) => { draft.reveal = v; save(); }, err, false, formatPart));
    } else {
      kids.push(...letters("rows-1", `${sides["1"]}: suit row, left to right`, draft.rows1, v => { draft.rows1 = v; }));
      kids.push(...letters("rows-2", `${sides["2"]}: suit row, left to right`, draft.rows2, v => { draft.rows2 = v; }));
    }
    const checkRow = (v, who) => {
      if (!/^[SHDC]{4}$/.test(v) || new Set(v).size !== 4) { showError(err, `${who}: give the four suits S, H, D, C once each, e.g. SHDC.`); return false; }
      return true;
    };
    kids.push(err, h("button", { type: "button", class: "btn primary", id: "setup-btn", onclick: async () => {
      showError(err, "");
      let action;
      if (draft.setupMode === "direct") {
        if (!checkRow(draft.rows1, sides["1"]) || !checkRow(draft.rows2, sides["2"])) return;
        action = { type: "setup", dealer: draft.dealer, suit_rows: { "1": draft.rows1, "2": draft.rows2 } };
      } else {
        const p = parseHand(draft.reveal, deck);
        if (p.error) { showError(err, p.error); return; }
        const rv = readReveal(p.cards);
        if (!rv.complete) { showError(err, `Keep turning cards: only ${rv.order.length} of the 4 suits have shown.`); return; }
        action = { type: "setup", dealer: draft.dealer, reveal: p.cards };
        if (rv.jokers) action.format = draft.format;
        if (rv.jokers && draft.format === "secrecy") {
          if (!checkRow(draft.secret1, sides["1"]) || !checkRow(draft.secret2, sides["2"])) return;
          action.secret = { "1": draft.secret1, "2": draft.secret2 };
        }
      }
      if (await send(action, err)) {
        drawAll();
        // the rows are set: back to the top, whose turn it is in view (the form was mid-grid)
        window.scrollTo(0, 0);
        const turn = document.getElementById("gingo-status");
        if (turn) { turn.tabIndex = -1; turn.focus({ preventScroll: true }); }
      }
    } }, "Set the suit rows"));
    form.replaceChildren(...kids);
  }

  function drawMelds() {
    const melds = g.melds || [];
    meldsBox.replaceChildren(h("h2", null, "Melds on the table"), melds.length ? h("ul", { class: "meld-list" }, ...melds.map(m =>
      h("li", { dataset: { meld: m.id } }, h("strong", null, `#${m.id}`), " ", ...(m.cards || []).map(c => {
        const chip = cardChip(c);
        if (m.designations && m.designations[c]) chip.textContent = `${c}=${pretty(m.designations[c])}`;
        return chip;
      }), h("span", { class: "muted" }, ` ${names[m.seat] ?? ""}${m.closed ? " · closed" : ""}`)))) : h("p", { class: "muted" }, "None yet."));
  }

  function drawHistory() {
    const hands = g.hands || [];
    historyBox.replaceChildren(h("h2", null, "Hands"), hands.length ? h("ol", { class: "history" }, ...hands.map(e => h("li", null,
      `Hand ${e.hand ?? ""}: ${e.went_out !== null && e.went_out !== undefined ? names[e.went_out] + " went out" : "no one went out"}`,
      e.winner ? ` · ${sides[String(e.winner)]} won (${String(e.reason || "").replace(/_/g, " ")})` : " · no link, chips stay"))) : h("p", { class: "muted" }, "No hand finished yet."));
  }

  // What an undo takes back, in words: the last play still standing ("Ben melded 9♠ 9♥
  // 9♦: 3 chips placed"); a play undone on this phone keeps its words for the redo.
  const undoneWords = new Map();   // seq of the event undone -> its words
  function lastPlayWords() {
    const p = (g.plays || [])[(g.plays || []).length - 1];
    return p ? `the last play (${playText(p, names, sides, g.frames)})` : "the last entry";
  }
  function drawTools(confirming = false) {
    const err = fieldError("undo-error");
    const undoWords = lastPlayWords();
    const act = (path, done) => {
      const seq = g.undo && g.undo.seq;
      return undoOrRedo({ ctx, g, path, done, drawAll, reload,
        apply: async (res) => {
          if (path.endsWith("/undo") && seq !== undefined) undoneWords.set(seq, undoWords);
          if (res && res.game) g = stateOf(res.game); else await reload();
        },
        errEl: () => tools.querySelector("#undo-error") || err });
    };
    const redoWords = g.redo ? (undoneWords.get(g.redo.seq) || "the play undone") : "";
    tools.replaceChildren(h("h2", null, "Game"), h("div", { class: "actions wrap" },
      ...undoButtons({ g, confirming, undoWords, redoWords, ask: drawTools, act }),
      h("a", { class: "btn", href: `/api/v1/games/${g.id}/export.json`, download: `gingo-${g.id}.json` }, "Export JSON"),
      h("a", { class: "btn", href: `/api/v1/games/${g.id}/export.csv`, download: `gingo-${g.id}.csv` }, "Export CSV"),
      h("button", { type: "button", class: "btn", onclick: () => window.print() }, "Print"),
      g.finished || g.phase === "game_over" ? h("button", { type: "button", class: "btn primary", id: "rematch-btn", onclick: async () => {
        try { const res = await ctx.write("POST", `/api/v1/games/${g.id}/rematch`, {}); const ng = res.game || res; ctx.navigate(`#/game/${ng.id}`); }
        catch (e) { showError(err, api.says(e)); }
      } }, "Rematch") : null), err);
  }

  async function reload() {
    // a fetch that started before this phone's own play answers with an older game:
    // never step back to it (the entry being made would be reset)
    try {
      const res = await api.get(`/api/v1/games/${g.id}`);
      const fresh = stateOf(res.game || res);
      if (!(typeof fresh.version === "number" && typeof g.version === "number" && fresh.version < g.version)) g = fresh;
    } catch { /* keep the last */ }
  }

  function drawPlays() { playsBox.replaceChildren(...playLog(g, names, sides)); }

  function drawAll() { drawHeader(); drawBoard(); drawForm(); drawMelds(); drawPlays(); drawHistory(); drawTools(); }
  try { ctx.health = await api.get("/api/v1/health"); } catch { /* shown as offline */ }
  drawAll();
  return {
    async update(msgs) {
      // the whole game is fetched only when a live event changed it
      if (!ctx.touches(msgs, g)) return;
      const before = JSON.stringify([g.version, g.phase, (g.melds || []).length]);
      await reload();
      drawHeader(); drawBoard(); drawMelds(); drawPlays(); drawHistory(); drawTools();
      if (before !== JSON.stringify([g.version, g.phase, (g.melds || []).length]) && !form.contains(document.activeElement)) drawForm();
    },
  };
}
