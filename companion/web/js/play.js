// Dealt play: the companion holds the cards, this phone holds one seat. Starting a dealt
// game (#/play), taking a seat, and the table as the seat sees it: its hand (a fanned row,
// or the card grid with suits as columns), the discard pile and the stock, the other
// players' card counts, whose turn, and one button per legal move. The same screen for
// every game. The hand comes from GET .../view (with this phone's token) after each event.

import * as api from "./api.js";
import { h, fieldError, showError, rulesOf, labelOf, seg } from "./ui.js";
import { SUIT, split, face, red, sortCards } from "./play_cards.js";
import { movesPanel, holdMoves } from "./play_moves.js";
import { playBoard, sideOfSeat } from "./play_board.js";
import { waitPanel, markWaits, fitWait } from "./play_wait.js";
import { dragCards } from "./play_drag.js";
import { sideNames } from "./gingo.js";
import { variantsOf } from "./games.js";
import { announce } from "./announce.js";
import { plainError } from "./words.js";
import { scoreLine, lastMoveWords, handOverPanel, handOverWords, matchEnd } from "./play_end.js";
import { remoteInfo, remoteOn, hostOption, hostError, noteInvite, refreshRemote } from "./remote.js";

// the game this phone plays (the Play tab returns to it while it is in progress)
const CURRENT = "gingo.play.current";
// the hand-over panels a phone has moved on from, per game (a number of hands)
const SEEN_PREFIX = "gingo.play.seen.";
// a bots-only table moves on from a hand-over panel after this long (a phone with a seat waits for its player)
const HANDOVER_MS = 8000;

let styled = false;
function style() {
  if (styled) return;
  styled = true;
  document.head.append(h("link", { rel: "stylesheet", href: "js/play.css" }));
}

// the bots' levels (options.bot_level); each game says what its levels do, one line each
// (its Variant's level_words, in /api/v1/variants and in the game's rules)
const LEVELS = ["easy", "normal", "strong"];

// ---- starting a dealt game ---------------------------------------------------------------------
export async function mountPlayNew(main, ctx) {
  style();
  // the Play tab returns to the game in progress on this phone (#/play/new always deals anew)
  const fresh = (location.hash || "").split("/")[2] === "new";
  const current = localStorage.getItem(CURRENT);
  if (!fresh && current && api.token()) {
    try {
      const v = await api.get(`/api/v1/games/${encodeURIComponent(current)}/view`);
      if (v.seat !== null && v.seat !== undefined && !v.finished) { ctx.navigate(`#/game/${encodeURIComponent(current)}`); return; }
    } catch (e) { /* gone: deal a new one */ }
    localStorage.removeItem(CURRENT);
  }
  const all = ctx.variants || (ctx.variants = ctx.normVariants(await api.get("/api/v1/variants")));
  const variants = all.filter(v => v.dealtPlay);  // only the games the companion can deal
  const remote = remoteOn(await remoteInfo());  // this board has a [remote] section: it can host a friend
  const draft = { variant: null, count: 2, names: ["", "", "", ""], bots: [false, true, true, true], skip: false, level: "strong",
    remote: false };
  // a hosted game keeps a seat without a bot for the friend (this phone takes seat 1)
  const friendSeat = () => { for (let i = 1; i < draft.count; i++) if (!draft.bots[i]) return i; return -1; };
  const form = h("form", { class: "panel play-new", novalidate: true, id: "play-form" });
  const err = fieldError("play-error");
  main.append(form);
  function counts(v) {
    if (Array.isArray(v.players)) return v.players;
    if (v.players && typeof v.players === "object" && "min" in v.players) {
      const out = []; for (let n = v.players.min; n <= v.players.max; n++) out.push(n); return out;
    }
    return [2];
  }
  function draw() {
    const v = variants.find(x => x.name === draft.variant) || variants[0];
    draft.variant = v.name;
    const ns = counts(v).slice().sort((a, b) => a - b);
    if (!ns.includes(draft.count)) draft.count = ns[0];
    const kids = [h("h1", null, "Play without cards"),
      h("p", { class: "muted" }, "The companion deals. Each phone takes a seat and sees only its own hand; bots play the seats you tick."),
      h("div", { class: "label" }, "Game"),
      seg(variants.map(x => [x.name, x.label]), v.name, (val) => { draft.variant = val; draw(); }, "game")];
    if (ns.length > 1) kids.push(h("div", { class: "label" }, "Players"),
      seg(ns.map(n => [n, String(n)]), draft.count, (n) => { draft.count = Number(n); draw(); }, "number of players"));
    for (let i = 0; i < draft.count; i++) {
      const name = h("input", { id: `play-name-${i}`, value: draft.names[i], autocomplete: "off", maxlength: 40,
        placeholder: draft.bots[i] && i > 0 ? `Bot ${i}` : `Player ${i + 1}` });
      name.addEventListener("input", () => { draft.names[i] = name.value; });
      const bot = h("input", { type: "checkbox", id: `play-bot-${i}`, checked: i > 0 && draft.bots[i] });
      bot.addEventListener("change", () => { draft.bots[i] = bot.checked; draw(); });
      kids.push(h("div", { class: "play-seat-row" },
        h("label", { for: `play-name-${i}` }, `Seat ${i + 1}`), name,
        h("label", { class: "play-check" }, bot, " bot")));
    }
    if (draft.bots.slice(1, draft.count).some(Boolean)) {
      const help = h("p", { class: "muted play-level-help", id: "play-level-help" }, (v.levelWords || {})[draft.level] || "");
      const levelSeg = seg(LEVELS.map(l => [l, l[0].toUpperCase() + l.slice(1)]), draft.level,
        (val) => { draft.level = val; draw(); }, "bots' level");
      levelSeg.id = "play-level";
      kids.push(h("div", { class: "label" }, "Bots' level"), levelSeg, help);
    }
    if (v.onBoard) {  // a game played on the companion's board may be played on phones alone
      const skip = h("input", { type: "checkbox", id: "play-skip", checked: draft.skip });
      skip.addEventListener("change", () => { draft.skip = skip.checked; });
      kids.push(h("label", { class: "play-check" }, skip, " Skip the board (phones only)"));
    }
    if (remote) kids.push(hostOption(draft.remote, (on) => {
      draft.remote = on;
      if (on && friendSeat() < 0) draft.bots[1] = false;  // the friend needs a seat: the first after this phone's
      draw();
      form.querySelector("#play-remote").focus();  // the form was drawn anew: keep the keyboard's place
    }, "play-remote", "This phone takes seat 1; your friend's phone takes a seat you leave without a bot."));
    kids.push(err, h("button", { class: "btn primary big", type: "submit", id: "play-deal" }, "Deal"));
    form.replaceChildren(...kids);
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const bots = [];
    const names = [];
    for (let i = 0; i < draft.count; i++) {
      const isBot = i > 0 && draft.bots[i];
      if (isBot) bots.push(i);
      names.push((draft.names[i] || "").trim() || (isBot ? `Bot ${i}` : `Player ${i + 1}`));
    }
    const body = { variant: draft.variant, players: names, mode: "dealt", bots, client_id: api.newClientId() };
    if (bots.length) body.options = { bot_level: draft.level };
    if ((variants.find(x => x.name === draft.variant) || {}).onBoard) body.skip_board = draft.skip;
    const hosting = remote && draft.remote;
    if (hosting && friendSeat() < 0) {
      showError(err, "Every seat but yours is a bot: untick “bot” on the seat your friend will take. Nothing was dealt.");
      return;
    }
    if (hosting) body.remote = true;
    try {
      const g = await api.post("/api/v1/games", body);
      if (hosting) { noteInvite(g); refreshRemote(); }  // its invite code above the game; the bar: waiting for the friend
      // the phone that deals has seen no hand yet: a hand the bots end before this phone's
      // first look still gets its panel (without this, the first look counted it as seen)
      localStorage.setItem(`${SEEN_PREFIX}${g.id}`, "0");
      try { await api.post(`/api/v1/games/${g.id}/seats/0`); } catch (e) { /* someone was quicker: pick another */ }
      ctx.navigate(`#/game/${g.id}`);
    } catch (e) { showError(err, hosting ? hostError(e) : api.says(e)); }
  });
  draw();
}

// ---- the table, as this seat sees it ------------------------------------------------------------
export async function mountPlay(main, game, ctx) {
  style();
  const id = game.id;
  const path = `/api/v1/games/${encodeURIComponent(id)}`;
  const rules = rulesOf(game);
  const deck = rules.deck;
  const names = game.players;
  const sides = sideNames(names, rules.sides);
  // what this screen switches on, as GET /api/v1/variants says it (the game's rules as the fallback)
  const kind = (await variantsOf(ctx)).find(v => v.name === game.variant) || {};
  const onBoard = kind.onBoard ?? !!rules.on_board;         // played on the companion's board
  const pileDraw = kind.pileDraw ?? rules.pile_draw !== false;  // a seat may take the pile's top card
  const matchWord = kind.matchWord || rules.match_word || "match";
  // a remote game on the board waits for either board's chips, each wait naming its board:
  // this board's id (GET /api/v1/remote) tells a wait here from one at the friend's board
  const here = onBoard ? ((await remoteInfo()) || {}).board || null : null;
  const root = h("section", { class: "panel play", id: "play", "aria-label": `${labelOf(game)}, dealt` });
  main.append(root);
  let view = null;
  let live = null;     // the live board (GET /api/v1/board), for a Gin-Go game on the board
  let chosen = new Set();
  const picks = new Map();  // a move's joker choice: move key -> option
  let busy = false;
  let hint = null;   // the latest hint's words, until the next move
  let layout = localStorage.getItem("gingo.play.layout") || "fan";
  const err = fieldError("play-error");
  // the hand-over panels this phone has moved on from (remembered, so a reload shows an unread one again)
  const SEEN = `${SEEN_PREFIX}${id}`;
  let seen = localStorage.getItem(SEEN) === null ? null : Number(localStorage.getItem(SEEN));
  let said = 0;        // the latest hand whose end was announced
  let full = null;     // the whole game (GET /api/v1/games/{id}), for the match end
  let autoTimer = null;
  const rematchErr = fieldError("rematch-error");

  let asked = 0;     // loads started
  let shown = 0;     // the latest load whose answer is on screen
  async function load() {
    const n = ++asked;
    const [next, board] = await Promise.all([api.get(`${path}/view`),
      onBoard && ctx.loadBoard ? ctx.loadBoard() : Promise.resolve(null)]);
    // a slower answer to an earlier fetch must not put an older table back on screen: not
    // an older version, nor (the board changes without a new version) an older board
    if (n < shown) return;
    if (view && next.seat === view.seat && next.version < view.version) return;
    shown = n;
    // the same game and board again (board news, this seat's own view after its own move):
    // nothing on screen would change, so the screen is not rebuilt: a rebuild between a
    // finger's down and up loses the tap (in a CI run a Gin-Go move tapped during one did nothing)
    const same = view !== null && JSON.stringify(next) === JSON.stringify(view)
      && JSON.stringify(board) === JSON.stringify(live);
    view = next;
    live = board;
    if (seen === null) {  // the first time this phone shows the game: no old hand to show
      // (the phone that deals has seen none: the deal form says so, for the hands the bots
      // may end before this first look)
      seen = (view.public || {}).hands_over || 0;
      said = seen;
      localStorage.setItem(SEEN, String(seen));
    }
    // more than one hand ended since this phone last looked (a bot ended the next hand before
    // it drew again): the panels come in order from the whole game's list, so fetch it before
    // drawing, never a screen of the hand after them in between
    const over = (view.public || {}).hands_over || 0;
    let fetched = false;
    if (over > (seen || 0) + 1 && !(full && full.dealt && (full.dealt.hand_overs || []).length >= over)) {
      try { const g = await api.get(path); full = g.game || g; fetched = true; } catch (e) { showError(err, e.message); }
      if (shown > n) return;  // a newer answer went on screen meanwhile
    }
    if (same && !fetched) return;
    const held = new Set(view.hand);
    chosen = new Set([...chosen].filter(c => held.has(c)));
    draw();
  }

  // dealt Gin-Go on the board: what the next turn waits for (null with skip_board, or nothing to wait for)
  const waiting = () => (view && onBoard && !(view.public || {}).skip_board && view.waiting_for_board) || null;
  const WAIT_WORDS = "The board must match the game first: see the chips listed above the moves.";

  async function act(action) {
    if (busy) return;
    if (waiting()) { showError(err, WAIT_WORDS); return; }
    busy = true;
    try {
      const res = await api.post(`${path}/actions`, { action, client_id: api.newClientId(), expected_version: view.version });
      view = res.view;
      hint = null;
      chosen.clear();
      picks.clear();
      showError(err, "");
      draw();
    } catch (e) {
      showError(err, e.code === "board_pending" ? WAIT_WORDS : plainError(api.says(e)));
      if (e.code === "stale_version" || e.code === "board_pending") await load();
    } finally { busy = false; }
  }

  // one hint at a time: a second tap while one is on its way asks nothing more
  let hinting = false;
  async function askHint() {
    if (hinting) return;
    hinting = true;
    draw();
    try {
      const res = await api.get(`${path}/hint`);
      hint = `Hint: ${res.text}.`;
      showError(err, "");
      await load();
    } catch (e) {
      // asked from a screen that had not caught up yet (another tab or phone moved): say so, show the turn
      if (e.code === "not_your_turn") { showError(err, "It is not your turn now: a hint is for your own turn."); await load().catch(() => {}); }
      else showError(err, plainError(api.says(e)));
    } finally {
      hinting = false;
      if (view) draw();
    }
  }

  async function sit(n) {
    try { view = await api.post(`${path}/seats/${n}`); draw(); }
    catch (e) { showError(err, api.says(e)); }
  }

  async function free(n) {  // the host's phone only (the host settings unlocked)
    try {
      await api.request("DELETE", `${path}/seats/${n}`, undefined, { headers: { "X-Host-Code": sessionStorage.getItem("gingo.host") || "" } });
      showError(err, "");
      await load();
    } catch (e) { showError(err, api.says(e)); }
  }

  function toggle(name) {
    if (chosen.has(name)) chosen.delete(name); else chosen.add(name);
    showError(err, "");
    draw();
  }

  // a card dropped on the pile is discarded; on the board, it joins the cards chosen
  function dropped(name, zone) {
    if (!view || !view.hand.includes(name)) return;
    if (zone === "meld") { chosen.add(name); draw(); return; }
    if (waiting()) { showError(err, WAIT_WORDS); return; }
    const legal = view.legal_actions || [];
    const a = legal.find(x => x.type === "discard" && x.card === name) || legal.find(x => x.type === "knock" && x.card === name);
    if (a) { act(a); return; }
    showError(err, !legal.length ? "Wait for your turn." : legal.some(x => x.type === "draw") ? "Draw first, then discard." : `${face(name, deck)} cannot be discarded now.`);
  }
  const drag = dragCards(root, dropped);

  function cardButton(name) {
    const on = chosen.has(name);
    const fresh = view.drawn === name;  // the card just drawn from the stock
    return h("button", {
      type: "button", class: `play-card${red(name, deck) ? " red" : ""}${on ? " chosen" : ""}${fresh ? " drawn" : ""}`,
      "aria-pressed": on ? "true" : "false", "aria-label": fresh ? `${face(name, deck)}, just drawn` : face(name, deck), dataset: { card: name },
      onclick: () => toggle(name),
    }, face(name, deck));
  }

  // ---- between hands: the hand-over panel, then the match end ------------------------------------
  function moveOn() {
    clearTimeout(autoTimer);
    autoTimer = null;
    const pub = view.public || {};
    seen = Math.min((seen || 0) + 1, pub.hands_over || 0);  // one panel at a time, in order
    localStorage.setItem(SEEN, String(seen));
    draw();
    const h1 = root.querySelector("h1, #match-end h2");
    if (h1) { h1.tabIndex = -1; h1.focus({ preventScroll: true }); }
  }

  let loadingFull = false;
  async function loadFull() {
    if (loadingFull) return;
    loadingFull = true;
    try { const g = await api.get(path); full = g.game || g; draw(); } catch (e) { showError(err, api.says(e)); }
    finally { loadingFull = false; }
  }

  async function rematch() {
    try {
      const res = await ctx.write("POST", `${path}/rematch`, {});
      const ng = (res && (res.game || res)) || null;
      if (ng && ng.id) ctx.navigate(`#/game/${encodeURIComponent(ng.id)}`);
    } catch (e) { showError(rematchErr, api.says(e)); }
  }

  // the panel of the hand that ended, when this phone has not moved on from it yet
  // the first hand that ended and this phone has not shown yet: the latest one, or, when
  // more than one ended since (a bot ended the next hand before this phone drew again), the
  // earliest of them from the whole game's list, so that every hand gets its panel in order
  function pendingHand() {
    const pub = view.public || {};
    const over = pub.hands_over || 0;
    const from = seen || 0;
    if (!pub.last_hand || over <= from) return null;
    if (over === from + 1) return pub.last_hand;
    const list = full && full.dealt && full.dealt.hand_overs;
    if (list && list.length >= over) return list[from];
    loadFull();  // draws again once the list is here
    return null;
  }

  function handView() {
    const cards = sortCards(view.hand, deck);
    const n = `${cards.length} card${cards.length === 1 ? "" : "s"}`;
    if (layout === "fan") return h("div", { class: "play-fan", id: "play-hand", role: "group", "aria-label": `your hand, ${n}` }, ...cards.map(cardButton));
    const cols = [...deck.columns.map(c => c.key)];
    if (cards.some(c => split(c, deck).col === "*")) cols.push("*");
    return h("div", { class: `play-grid cols-${Math.min(cols.length, 7)}`, id: "play-hand", role: "group", "aria-label": `your hand by suit, ${n}` },
      ...cols.map(col => h("div", { class: "play-col" },
        h("span", { class: "play-col-head", "aria-hidden": "true" },
          col === "*" ? "★" : (SUIT[col] || (deck.columns.find(c => c.key === col) || {}).label || col)),
        ...cards.filter(c => split(c, deck).col === col).map(cardButton))));
  }

  // the bots' level (with its line of help), and a hint on request on this seat's turn
  function hintBox(pub, me, turn) {
    const level = pub.bot_level || "strong";
    const used = (pub.hints || [])[me] || 0;
    const hasBots = (pub.seats || []).some(s => s.bot);
    const mine = turn === me && !view.finished;
    return h("div", { class: "play-hint-box", id: "play-hint" },
      hasBots ? h("p", { class: "muted", id: "play-level-line" }, `Bots' level: ${(rules.level_words || {})[level] || level}`) : null,
      mine ? h("button", { type: "button", class: "btn", id: "play-hint-btn", onclick: askHint,
        "aria-busy": hinting ? "true" : null, "aria-disabled": hinting ? "true" : null }, "Hint") : null,
      h("p", { role: "status", id: "play-hint-text" }, mine && hint ? hint : ""),
      used ? h("p", { class: "muted", id: "play-hints-used" }, `Hints used: ${used}`) : null);
  }

  function hostSeats(pub) {
    if (!sessionStorage.getItem("gingo.host")) return null;
    const held = (pub.seats || []).filter(s => s.taken && !s.bot);
    if (!held.length) return null;
    return h("div", { class: "play-host", id: "play-host" }, h("div", { class: "label" }, "Host"),
      ...held.map(s => h("button", { type: "button", class: "btn play-free", dataset: { seat: String(s.seat) }, onclick: () => free(s.seat) },
        `Free ${s.name}'s seat`)));
  }

  // What the board waits for, in a box (null: nothing): on this board, every space to put
  // right, named in the seat's frame; on the friend's board (two boards, one game), a line
  // saying its players are moving their chips.
  function waitFor(wait, pub, me) {
    if (!wait) return null;
    if (wait.board && here && wait.board !== here) {
      return h("div", { class: "play-wait", id: "play-wait", role: "region", "aria-label": "what the game waits for",
        tabindex: "0", dataset: { board: wait.board } },  // fitWait may make it scroll: a keyboard scrolls it too
        h("p", null, h("strong", { class: "play-wait-head" }, "Waiting for the other board: "),
          `the chips on ${wait.board} do not match the game yet. Its players move them as its LEDs show; `,
          "the game goes on as soon as they match."));
    }
    const side = me !== null ? sideOfSeat(me, rules.sides) : "1";
    const teams = Object.values(rules.sides || {}).some(seats => seats.length > 1);
    return waitPanel({ wait, frames: pub.frames, side, seat: me, teams, sideNames: sides, deck });
  }

  function draw() {
    const pub = view.public || {};
    const me = view.seat;
    const kids = [];
    const turn = pub.to_move;
    const wait = waiting();
    const ended = pendingHand();
    if (me !== null && !view.finished) localStorage.setItem(CURRENT, id);
    else if (view.finished && localStorage.getItem(CURRENT) === id) localStorage.removeItem(CURRENT);
    const status = (ended ? `Hand ${ended.hand} is over`
      : view.finished ? "The game is over."
      : turn === me && me !== null ? "Your turn"
      : turn === null || turn === undefined ? "" : `${names[turn]}'s turn`);
    // whose turn (the screen's heading, the game's name for a screen reader) and the game, its
    // rule set and the score; then the other players, each with their card count and their last
    // move in words, and the stock
    const sizes = pub.hand_sizes || [];
    const recent = pub.recent || [];
    // (not while the board is awaited: the wait box says what to move, and the hand keeps its room)
    const moved = (i) => (ended || view.finished || wait ? null : lastMoveWords(recent, i, deck, pileDraw));
    kids.push(h("div", { class: `play-head${wait ? " waiting" : ""}` },
      h("h1", { class: "play-turn" }, h("span", { class: "visually-hidden" }, `${labelOf(game)}: `),
        h("span", { role: "status", "aria-live": "polite" }, status,
          wait && !view.finished ? h("span", { class: "play-turn-wait" }, ": waiting for the board") : null)),
      scoreLine(game, view, names, sides),
      view.finished ? null : h("ul", { class: "play-others", "aria-label": "players and their last moves" }, ...names.map((n, i) => {
        if (i === me) return null;
        const words = moved(i);
        return h("li", { class: `${i === turn ? "turn" : ""}${words ? " moved" : ""}`, dataset: { seat: String(i) } },
          `${n}${(pub.seats && pub.seats[i] && pub.seats[i].bot && !/bot/i.test(n)) ? " (bot)" : ""}`,
          h("span", { class: "play-count" }, `${sizes[i] ?? 0} cards`),
          words ? h("span", { class: "play-last-move" }, `: ${words}.`) : null);
      })),
      view.finished ? null : h("span", { class: "play-stock" }, "Stock", h("span", { class: "play-count" }, String(pub.stock ?? 0)))));
    if (ended) {  // the hand that ended, face up, until the player moves on
      if (ended.hand > said) { said = ended.hand; announce(handOverWords(ended, names, rules, sides)); }
      const botsOnly = (pub.seats || []).every(s => s.bot);
      if (botsOnly && !autoTimer) autoTimer = setTimeout(moveOn, HANDOVER_MS);
      // a going out's chips (the capture, the last meld) are the board's to move before the
      // next hand: the list of spaces, as during a turn, above the hand that ended
      kids.push(waitFor(wait, pub, me));
      kids.push(handOverPanel({ summary: ended, names, rules, deck, sides, onNext: moveOn,
        nextWord: ended.finished ? (matchWord === "game" ? "See the game's end" : "See the final score") : "Next hand",
        auto: botsOnly ? `The bots play on in ${HANDOVER_MS / 1000} seconds.` : null }));
      kids.push(err, hostSeats(pub));
      root.dataset.version = String(view.version);
      root.replaceChildren(...kids.filter(Boolean));
      fitWait(root);
      return;
    }
    if (view.finished) {  // the match end: the winner, the final score, Rematch and the score sheet
      if (!full || full.version < view.version) loadFull();
      if (full) {
        const end = matchEnd({ game: full, names, rules, deck, sides, matchWord, rematch, error: rematchErr });
        kids.push(end.el);
      }
      kids.push(err);
      root.dataset.version = String(view.version);
      root.replaceChildren(...kids.filter(Boolean));
      return;
    }
    // the discard pile, the top card first (a card dragged onto the pile is discarded)
    const pile = pub.pile ? pub.pile : (pub.discard_top ? [pub.discard_top] : []);
    // and, next to it, how this phone shows the hand (a fanned row, or by suit: remembered)
    const pileBox = h("div", { class: "play-pile", id: "play-pile", role: "group", "aria-label": "discard pile, the top card first", dataset: { drop: "discard" } },
      h("span", null, "Discard"),
      ...pile.slice(-5).reverse().map((c, i) => h("span", { class: `play-pile-card${red(c, deck) ? " red" : ""}${i === 0 ? " top" : ""}` }, face(c, deck))),
      pile.length ? null : h("span", { class: "muted" }, "empty"));
    let layoutSeg = null;
    if (me !== null) {
      layoutSeg = seg([["fan", "Row"], ["grid", "By suit"]], layout, (v) => { layout = v; localStorage.setItem("gingo.play.layout", v); draw(); }, "hand layout");
      layoutSeg.id = "play-layout";
    }
    kids.push(h("div", { class: "play-table" }, pileBox, layoutSeg));
    let moves = null;
    if (me !== null && !view.finished) {
      moves = movesPanel({ view, deck, words: rules, chosen, picks, act, redraw: draw,
        choose: (cards) => { chosen = new Set(cards); showError(err, ""); draw(); } });
    }
    const elsewhere = !!(wait && wait.board && here && wait.board !== here);  // the friend's board, not this one
    const waitBox = waitFor(wait, pub, me);
    if (waitBox && moves) holdMoves(moves);  // the moves wait too, said in one line
    if (onBoard) {  // the board as the seat sees it, with the melds its chips stand for
      const melds = (pub.table && pub.table.melds) || [];
      // the melds on the table, folded away under the board (the board shows their chips)
      const list = melds.length ? h("details", { class: "play-melds", id: "play-melds" }, h("summary", null, `Melds (${melds.length})`),
        h("p", null, ...melds.map(m => h("span", { class: m.side === 1 ? "side1" : "side2" },
          `${(m.stands_for || m.cards).map(c => face(c, deck)).join(" ")}`)))) : null;
      const boardEl = playBoard({ id, pub, seat: me, sides: rules.sides, sideNames: sides, preview: moves && moves.preview, live, melds: list });
      if (wait && !elsewhere) markWaits(boardEl, wait, pub.frames, me !== null ? sideOfSeat(me, rules.sides) : "1");
      kids.push(boardEl);
    }
    if (me === null) {
      const open = (pub.seats || []).filter(s => !s.taken);
      kids.push(waitBox);
      kids.push(h("p", null, api.token() ? "Take a seat to see your hand." : "Join the table first (Join, in the menu), then take a seat."));
      if (api.token()) kids.push(h("div", { class: "play-moves" }, ...open.map(s =>
        h("button", { type: "button", class: "btn play-move", onclick: () => sit(s.seat) }, `Sit as ${s.name}`))));
    } else {
      // the hand and the moves under it stick together to the bottom of the screen: on a page
      // taller than the phone (four players' Gin-Go, a wrapped line, four moves) the board
      // scrolls under them, never the hand under the moves
      kids.push(h("div", { class: "play-dock", id: "play-dock" }, handView(),
        h("div", { class: "play-moves", id: "play-moves" }, waitBox, ...(moves ? moves.kids : []))));
      // not while the board is awaited: the moves are held until it agrees, and the box
      // would push the sticky hand and moves over the board on a phone
      if (!wait) kids.push(hintBox(pub, me, turn));
    }
    kids.push(err, hostSeats(pub));
    root.dataset.version = String(view.version);
    root.replaceChildren(...kids.filter(Boolean));
    fitWait(root);
  }

  await load();
  return {
    update: (msgs) => {
      if (msgs && !msgs.some(m => m.event && m.event.game_id === id)) return;
      load().catch(e => showError(err, api.says(e)));
    },
    unmount: () => { clearTimeout(autoTimer); drag.destroy(); },
  };
}
