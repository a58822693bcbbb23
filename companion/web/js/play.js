// Dealt play: the companion holds the cards, this phone holds one seat. Starting a dealt
// game (#/play), taking a seat, and the table as the seat sees it: its hand (a fanned row,
// or the card grid with suits as columns), the discard pile and the stock, the other
// players' card counts, whose turn, and one button per legal move. The same screen for
// every game. The hand comes from GET .../view (with this phone's token) after each event.

import * as api from "./api.js";
import { h, fieldError, showError, rulesOf, labelOf, seg } from "./ui.js";

let styled = false;
function style() {
  if (styled) return;
  styled = true;
  document.head.append(h("link", { rel: "stylesheet", href: "js/play.css" }));
}

// ---- cards --------------------------------------------------------------------------------
function split(name, deck) {
  if ((deck.extra || []).includes(name)) return { col: "*", rank: name };
  if (deck.name_order === "colour_rank") return { col: name[0], rank: name.slice(1) };
  return { col: name.slice(-1), rank: name.slice(0, -1) };
}
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
function face(name, deck) {
  const { col, rank } = split(name, deck);
  if (col === "*") return name;
  return (SUIT[col] ? rank + SUIT[col] : name);
}
function red(name, deck) { const c = split(name, deck).col; return c === "H" || c === "D"; }
function sortCards(cards, deck) {
  const cols = deck.columns.map(c => c.key);
  const key = (n) => { const s = split(n, deck); return [s.col === "*" ? 99 : cols.indexOf(s.col), deck.ranks.indexOf(s.rank)]; };
  return [...cards].sort((a, b) => { const x = key(a), y = key(b); return x[0] - y[0] || x[1] - y[1]; });
}

// ---- what a move is called ------------------------------------------------------------------
function cardsOf(a) {
  if (a.card) return [a.card];
  if (a.cards) return a.cards;
  return [];
}
function label(a, view, deck) {
  const f = (c) => face(c, deck);
  const pub = view.public || {};
  switch (a.type) {
    case "pass": return pub.phase === "rescue" ? "Give up the last discard" : "Pass";
    case "draw":
      if (a.source === "stock") return "Draw from the stock";
      if (a.source === "discard") return pub.phase === "upcard" ? `Take the upcard ${f(pub.discard_top)}` : `Take ${f(pub.discard_top)}`;
      return "Draw";
    case "discard": return a.card ? `Discard ${f(a.card)}` : "Discard";
    case "knock": return `Knock with ${f(a.card)}`;
    case "big_gin": return "Big gin";
    case "choose_deal": return a.deal ? "Deal first" : "Let the other deal";
    case "setup": return a.format ? `Set up: ${a.format.replace(/_/g, " ")}` : "Set up the suit rows";
    case "new_hand": return "Deal the next hand";
    case "meld": return `Meld ${a.cards.map(f).join(" ")}`;
    case "hit": return `Hit meld ${a.meld} with ${a.cards.map(f).join(" ")}`;
    case "take": return `Dig ${f(a.card)}` + (a.meld ? ` and meld ${a.meld.cards.map(f).join(" ")}` : " and lay off");
    default: return a.type;
  }
}

// ---- starting a dealt game ---------------------------------------------------------------------
export async function mountPlayNew(main, ctx) {
  style();
  const variants = ctx.variants || (ctx.variants = ctx.normVariants(await api.get("/api/v1/variants")));
  const draft = { variant: "gin", count: 2, names: ["", "", "", ""], bots: [false, true, true, true], skip: false };
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
    if (v.name === "gingo") {
      const skip = h("input", { type: "checkbox", id: "play-skip", checked: draft.skip });
      skip.addEventListener("change", () => { draft.skip = skip.checked; });
      kids.push(h("label", { class: "play-check" }, skip, " Skip the board (phones only)"));
    }
    kids.push(err, h("button", { class: "btn primary big", type: "submit" }, "Deal"));
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
    if (draft.variant === "gingo") body.skip_board = draft.skip;
    try {
      const g = await api.post("/api/v1/games", body);
      try { await api.post(`/api/v1/games/${g.id}/seats/0`); } catch (e) { /* someone was quicker: pick another */ }
      ctx.navigate(`#/game/${g.id}`);
    } catch (e) { showError(err, e.message); }
  });
  draw();
}

// ---- the table, as this seat sees it ------------------------------------------------------------
export async function mountPlay(main, game, ctx) {
  style();
  const id = game.id;
  const deck = rulesOf(game).deck;
  const root = h("section", { class: "panel play", id: "play", "aria-label": `${labelOf(game)}, dealt` });
  main.append(root);
  let view = null;
  let chosen = new Set();
  let busy = false;
  let layout = localStorage.getItem("gingo.play.layout") || "fan";
  const err = fieldError("play-error");

  async function load() {
    const next = await api.get(`/api/v1/games/${encodeURIComponent(id)}/view`);
    // a slower answer to an earlier fetch must not put an older table back on screen
    if (view && next.seat === view.seat && next.version < view.version) return;
    view = next;
    const held = new Set(view.hand);
    chosen = new Set([...chosen].filter(c => held.has(c)));
    draw();
  }

  async function act(action) {
    if (busy) return;
    busy = true;
    try {
      const res = await api.post(`/api/v1/games/${encodeURIComponent(id)}/actions`,
        { action, client_id: api.newClientId(), expected_version: view.version });
      view = res.view;
      chosen.clear();
      showError(err, "");
      draw();
    } catch (e) {
      showError(err, e.message);
      if (e.code === "stale_version") await load();
    } finally { busy = false; }
  }

  async function sit(n) {
    try { view = await api.post(`/api/v1/games/${encodeURIComponent(id)}/seats/${n}`); draw(); }
    catch (e) { showError(err, e.message); }
  }

  function cardButton(name) {
    const on = chosen.has(name);
    return h("button", {
      type: "button", class: `play-card${red(name, deck) ? " red" : ""}${on ? " chosen" : ""}`,
      "aria-pressed": on ? "true" : "false", "aria-label": name, dataset: { card: name },
      onclick: () => { if (on) chosen.delete(name); else chosen.add(name); draw(); },
    }, face(name, deck));
  }

  function handView() {
    const cards = sortCards(view.hand, deck);
    if (layout === "fan") return h("div", { class: "play-fan", role: "group", "aria-label": "your hand" }, ...cards.map(cardButton));
    const cols = [...deck.columns.map(c => c.key)];
    if (cards.some(c => split(c, deck).col === "*")) cols.push("*");
    return h("div", { class: `play-grid cols-${Math.min(cols.length, 7)}`, role: "group", "aria-label": "your hand by suit" },
      ...cols.map(col => h("div", { class: "play-col" },
        h("span", { class: "play-col-head", "aria-hidden": "true" },
          col === "*" ? "★" : (SUIT[col] || (deck.columns.find(c => c.key === col) || {}).label || col)),
        ...cards.filter(c => split(c, deck).col === col).map(cardButton))));
  }

  function movesView() {
    const legal = view.legal_actions || [];
    const pick = [...chosen];
    // moves that take no card, then those whose cards are exactly the chosen ones, then
    // (nothing chosen) the melds, hits and digs there are, so a tap on one plays it
    const plain = legal.filter(a => cardsOf(a).length === 0 && a.type !== "take");
    const fits = legal.filter(a => a.type !== "take" && cardsOf(a).length && pick.length
      && cardsOf(a).length === pick.length && cardsOf(a).every(c => chosen.has(c)));
    const combos = pick.length ? [] : legal.filter(a => a.type === "meld" || a.type === "hit" || a.type === "take");
    const buttons = [...plain, ...fits, ...combos.slice(0, 6)].map(a =>
      h("button", { type: "button", class: "btn play-move", onclick: () => act(a) }, label(a, view, deck)));
    if (!buttons.length && legal.length) {
      return [h("p", { class: "muted play-hint" }, legal.some(a => a.type === "discard") ? "Tap a card to discard it, or cards to meld." : "Tap cards to choose a move.")];
    }
    return buttons;
  }

  function draw() {
    const pub = view.public || {};
    const names = game.players;
    const me = view.seat;
    const kids = [];
    const turn = pub.to_move;
    const status = view.finished ? "The game is over."
      : turn === me && me !== null ? "Your turn"
      : turn === null || turn === undefined ? "" : `${names[turn]}'s turn`;
    kids.push(h("div", { class: "play-head" },
      h("h1", null, labelOf(game)),
      h("p", { class: "play-turn", role: "status", "aria-live": "polite" }, status)));
    // the others: card counts and whose turn
    const sizes = pub.hand_sizes || [];
    kids.push(h("ul", { class: "play-others", "aria-label": "players" }, ...names.map((n, i) => i === me ? null :
      h("li", { class: i === turn ? "turn" : "" }, `${n}${(pub.seats && pub.seats[i] && pub.seats[i].bot) ? " (bot)" : ""}`,
        h("span", { class: "play-count" }, `${sizes[i] ?? 0} cards`)))));
    // the stock and the discard pile
    const pile = pub.pile ? pub.pile : (pub.discard_top ? [pub.discard_top] : []);
    kids.push(h("div", { class: "play-table" },
      h("div", { class: "play-stock", "aria-label": `stock: ${pub.stock ?? 0} cards` }, h("span", null, "Stock"), h("strong", null, String(pub.stock ?? 0))),
      h("div", { class: "play-pile", "aria-label": "discard pile" }, h("span", null, "Discard"),
        ...pile.slice(-5).map(c => h("span", { class: `play-pile-card${red(c, deck) ? " red" : ""}` }, face(c, deck))),
        pile.length ? null : h("span", { class: "muted" }, "empty"))));
    const melds = (pub.table && pub.table.melds) || [];
    if (melds.length) {  // Gin-Go: the melds on the table, each with its number (hits name it)
      kids.push(h("p", { class: "play-melds", "aria-label": "melds on the table" }, ...melds.map(m =>
        h("span", { class: m.side === 1 ? "side1" : "side2" }, `${m.id}: ${m.cards.map(c => face(c, deck)).join(" ")}`))));
    }
    if (me === null) {
      const free = (pub.seats || []).filter(s => !s.taken);
      kids.push(h("p", null, api.token() ? "Take a seat to see your hand." : "Join the table first (Join, in the menu), then take a seat."));
      if (api.token()) kids.push(h("div", { class: "play-moves" }, ...free.map(s =>
        h("button", { type: "button", class: "btn play-move", onclick: () => sit(s.seat) }, `Sit as ${s.name}`))));
    } else {
      kids.push(h("div", { class: "play-hand-head" }, h("div", { class: "label" }, `Your hand (${view.hand.length})`),
        seg([["fan", "Row"], ["grid", "By suit"]], layout, (v) => { layout = v; localStorage.setItem("gingo.play.layout", v); draw(); }, "hand layout")));
      kids.push(handView());
      kids.push(h("div", { class: "play-moves", id: "play-moves" }, ...(view.finished ? [] : movesView())));
    }
    if (view.finished) {
      kids.push(h("p", null, h("a", { class: "btn", href: `#/game/${id}`, onclick: (e) => { e.preventDefault(); ctx.navigate(`#/games`); } }, "Back to the games")));
    }
    kids.push(err);
    root.dataset.version = String(view.version);
    root.replaceChildren(...kids);
  }

  await load();
  return {
    update: (msgs) => {
      if (msgs && !msgs.some(m => m.event && m.event.game_id === id)) return;
      load().catch(e => showError(err, e.message));
    },
    unmount: () => {},
  };
}
