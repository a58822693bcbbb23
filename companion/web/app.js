// Gin-Go Companion phone page: the shell (routing, connection state, theme, join,
// game list, new game, board and simulator). Plain ES modules, no build step.

import * as api from "./js/api.js";
import { Live } from "./js/live.js";
import { h, fieldError, showError, toast, loadDraft, saveDraft, clearDraft, rulesOf, seg, buzz } from "./js/ui.js";
import { boardView, linkedSides, nextSimChip, noteSimTap, withPending } from "./js/board.js";
import { mountRummy } from "./js/rummy.js";
import { mountTeams } from "./js/teams.js";
import { mountOutings, mountOuting } from "./js/outings.js";
import { mountGingo } from "./js/gingo.js";
import { mountPlay, mountPlayNew } from "./js/play.js";
import { gamesOf, playerNames, winnerName as winnerOf, variantsOf, gameItem, gameLabel } from "./js/games.js";
import { mountHistory, mountStats, knownPlayers } from "./js/people.js";
import { keepAwake } from "./js/awake.js";
import { announce, noteOwnWrite } from "./js/announce.js";
import { liveNews } from "./js/news.js";

const view = document.getElementById("view");
// The skip link moves the focus without touching the hash (the hash is the router's).
document.querySelector(".skip-link").addEventListener("click", (ev) => { ev.preventDefault(); view.focus(); });
const connEl = document.getElementById("conn");
const outboxEl = document.getElementById("outbox");
const banner = document.getElementById("gin-banner");
const watchBar = document.getElementById("watch-bar");

const ctx = {
  variants: null,
  health: null,
  current: null,      // the mounted view: {update(msg), unmount()}
  write,
  navigate: (hash) => { if (location.hash === hash) render(); else location.hash = hash; },
  showGin,
  loadBoard,
  normVariants: (data) => normVariants(data),
};
window.gingo = ctx; // handy when debugging on a laptop

// ---- theme -------------------------------------------------------------------------
function applyTheme() {
  const t = localStorage.getItem("gingo.theme") || "auto";
  document.documentElement.dataset.theme = t;
  document.getElementById("theme").title = `theme: ${t}`;
}
document.getElementById("theme").addEventListener("click", () => {
  const order = ["auto", "light", "dark"];
  const t = localStorage.getItem("gingo.theme") || "auto";
  localStorage.setItem("gingo.theme", order[(order.indexOf(t) + 1) % 3]);
  applyTheme();
});
applyTheme();

// ---- connection --------------------------------------------------------------------
let connSaid = null;
function setConn(state) {
  connEl.dataset.state = state;
  const text = connEl.querySelector(".conn-text");
  if (text) text.textContent = state; else connEl.textContent = state;
  // said when it changes after the first connection (the page loading is not news)
  if (connSaid !== null && connSaid !== state) announce(`Connection ${state}`);
  if (state === "online" || connSaid !== null) connSaid = state;
  if (state === "online") {
    checkToken();
    api.flushOutbox((w, err) => toast(`Not saved: ${w.label || "entry"}: ${err.message}`, "error"))
      .then(n => { updateOutbox(); if (n) toast(`${n} waiting entr${n === 1 ? "y" : "ies"} sent`); refreshCurrent(); });
    refreshCurrent();
  }
}
function updateOutbox() {
  const n = api.outbox().length;
  outboxEl.hidden = n === 0;
  outboxEl.textContent = n ? `${n} waiting` : "";
}
let refreshTimer = null;
let refreshMsgs = [];
// Live messages within 60 ms are handed to the view together: update(msgs), where msgs
// is null for "refresh everything" (back online, a message that is not a game event).
function refreshCurrent(msg) {
  clearTimeout(refreshTimer);
  if (refreshMsgs !== null) {
    if (msg && msg.type === "event") refreshMsgs.push(msg); else refreshMsgs = null;
  }
  refreshTimer = setTimeout(() => {
    const msgs = refreshMsgs;
    refreshMsgs = [];
    if (ctx.current && ctx.current.update) ctx.current.update(msgs);
  }, 60);
}
// Whether live messages change game g: an event of that game at a version the page has
// not shown yet. Other games' events need no fetch (each carries its game's summary).
export function touches(msgs, g) {
  if (msgs === null || msgs === undefined) return true;
  return msgs.some(m => {
    const ev = m.event || {};
    if (ev.game_id !== g.id) return false;
    return !(m.game && typeof m.game.version === "number" && m.game.version === g.version);
  });
}
ctx.touches = touches;
function gameOnScreen() {
  const [, route, arg] = (location.hash || "").split("/");
  return route === "game" && arg ? decodeURIComponent(arg) : null;
}
function onLive(msg) {
  for (const text of liveNews(msg, gameOnScreen())) announce(text);
  if (msg && msg.type === "token_revoked" && (!api.tokenId() || msg.id === api.tokenId())) checkToken();
  if (msg && msg.type === "pairing_code") fetchPairCode();  // the live channel never carries the code itself
  if (msg && msg.game && msg.game.id === shownGame && msg.game.finished) keepAwake(false);  // the game is over
  refreshCurrent(msg);
}

// ---- pairing another phone: a new code shows on the phones already paired -----------------
// (made by a long press of the board's confirm button, by the host, or by "New pairing code")
//
// Asked for with "New pairing code", the box is a modal dialog: the focus moves to it, Tab
// and Shift+Tab stay inside it, the page behind is inert, and Escape or Hide closes it and
// puts the focus back on the button that opened it. Made elsewhere (the board's button,
// the host), it shows on the paired phones without taking their focus. Either way it is said
// once in the message area; Escape (from inside it) or Hide closes it.
let pairOpener = null;
const PAGE_BEHIND = [".skip-link", ".topbar", "#watch-bar", "#view", "#nav"];
function behind(inert) {
  for (const sel of PAGE_BEHIND) { const el = document.querySelector(sel); if (el) el.inert = inert; }
}
function hidePairCode() {
  const box = document.getElementById("pair-code");
  if (!box || box.hidden) return;
  box.hidden = true;
  behind(false);
  const back = pairOpener;
  pairOpener = null;
  if (back && back.isConnected) back.focus();
}
function pairBox() {
  let box = document.getElementById("pair-code");
  if (box) return box;
  box = h("section", { id: "pair-code", class: "pair-code", "aria-labelledby": "pair-code-title", hidden: true });
  box.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { ev.preventDefault(); hidePairCode(); return; }
    if (ev.key !== "Tab" || box.getAttribute("aria-modal") !== "true") return;
    const stops = [...box.querySelectorAll("button, a[href], input, select, [tabindex]:not([tabindex='-1'])")].filter(e => !e.disabled);
    if (!stops.length) { ev.preventDefault(); return; }
    const first = stops[0], last = stops[stops.length - 1];
    if (ev.shiftKey && (document.activeElement === first || !box.contains(document.activeElement))) { ev.preventDefault(); last.focus(); }
    else if (!ev.shiftKey && (document.activeElement === last || !box.contains(document.activeElement))) { ev.preventDefault(); first.focus(); }
  });
  document.body.appendChild(box);
  return box;
}
function showPairCode(s, opener) {
  const box = pairBox();
  if (!s || !s.code) { hidePairCode(); return; }
  const hadFocus = box.contains(document.activeElement);
  if (opener) pairOpener = opener;
  const modal = !!pairOpener;   // asked for on this phone, and not closed since
  const mins = Math.max(1, Math.round(s.expires_in / 60));
  box.replaceChildren(
    h("span", { id: "pair-code-title" }, "Pairing code for a new phone: "), h("strong", { id: "pair-code-value" }, s.code),
    h("small", null, ` (good for ${mins} min)`),
    h("button", { type: "button", class: "btn small", id: "pair-code-hide", onclick: hidePairCode }, "Hide"));
  box.setAttribute("role", modal ? "dialog" : "region");
  if (modal) box.setAttribute("aria-modal", "true"); else box.removeAttribute("aria-modal");
  box.hidden = false;
  behind(modal);
  if (modal || hadFocus) box.querySelector("#pair-code-hide").focus();
  announce(`Pairing code for a new phone: ${String(s.code).split("").join(" ")}, good for ${mins} minutes`);
}
async function fetchPairCode() {
  if (!api.token()) return;
  try { showPairCode(await api.get("/api/v1/pair/code")); }
  catch { /* not paired (any more): nothing to show */ }
}
async function newPairCode(err, opener) {
  showError(err, "");
  try { showPairCode(await api.request("POST", "/api/v1/pair/code"), opener); }
  catch (e) { showError(err, e instanceof api.NetError ? "No connection to the companion." : e.message); }
}
const live = new Live({ onMessage: onLive, onState: setConn });

// ---- watching or scoring -------------------------------------------------------------------
// Reads are open on the LAN: a phone that has not joined watches (games, sheets, the live
// board), read-only, with a Join button; only a joined phone (a token) writes.
export function paired() { return !!api.token(); }
ctx.paired = paired;
function updateRole() {
  const on = paired();
  document.body.dataset.paired = on ? "1" : "0";
  const route = (location.hash || "#/games").split("/")[1];
  watchBar.hidden = on || route === "join";
}
// What a write says on a phone that has not joined (nothing is sent; not "not paired any more").
export class NotJoined extends api.ApiError {
  constructor() { super(401, "not_joined", "This phone is only watching: tap Join to score (it needs the pairing code)."); }
}

// A phone the host removed learns it at once (live message) or when it reconnects.
function notPaired() {
  api.setToken("");
  updateRole();
  toast("This phone is not paired any more: enter the pairing code again", "error");
  if (location.hash === "#/join") render(); else location.hash = "#/join";
}
async function checkToken() {
  if (!api.token()) return;
  try { await api.get("/api/v1/tokens/me"); }
  catch (err) { if (err instanceof api.ApiError && err.status === 401) notPaired(); }
}
ctx.live = live;

async function write(method, path, body, opts = {}) {
  if (!paired()) throw new NotJoined();
  const payload = Object.assign({}, body);
  if (opts.clientId !== false && !payload.client_id) payload.client_id = api.newClientId();
  noteOwnWrite(payload.client_id);
  try {
    return await api.request(method, path, payload);
  } catch (err) {
    if (err instanceof api.NetError && opts.queue) {
      api.queueWrite(method, path, payload, opts.label);
      updateOutbox();
      toast("Offline: kept on this phone, it will be sent when the connection returns", "warn");
      return null;
    }
    if (err instanceof api.ApiError && err.status === 401) notPaired();
    if (err instanceof api.ApiError && err.status === 409) announce("Not saved: the game changed on another phone first; check what changed and enter again.");
    throw err;
  }
}

// ---- Gin banner ----------------------------------------------------------------------
// The sides linked when the screen was last drawn (null: not drawn yet on this screen).
// A side that links while the screen is shown makes the phone buzz where it can; a link
// already there when the screen opens does not.
let ginSeen = null;
function showGin(board, names) {
  const sides = linkedSides(board);
  if (ginSeen !== null && sides.some(s => !ginSeen.includes(s))) buzz();
  ginSeen = sides.slice();
  if (!sides.length) { banner.hidden = true; banner.textContent = ""; return; }
  const who = sides.map(s => (names && names[s]) || `Side ${s}`).join(" and ");
  // In the top bar, beside the name: it adds no height to the screen and covers nothing.
  banner.replaceChildren(`GIN! ${who}`, h("span", { class: "visually-hidden" }, ": linked from the A row to the K row"));
  banner.hidden = false;
}

// The simulated board takes taps from joined phones only (a watcher's board is read-only).
function isSim() {
  return paired() && !!ctx.health && ctx.health.sensors === "sim";
}
ctx.isSim = isSim;

async function loadBoard() {
  try { return await api.get("/api/v1/board"); } catch { return null; }
}

// ---- routing -------------------------------------------------------------------------
// A new screen (not the first one) puts the focus on its heading, so a screen reader and a
// keyboard start at the top of what changed.
window.addEventListener("hashchange", async () => {
  await render();
  const h1 = view.querySelector("h1");
  if (h1 && !view.contains(document.activeElement)) { h1.tabIndex = -1; h1.focus({ preventScroll: true }); }
});

let shownGame = null;  // the game on screen (the screen stays on while it is played)

async function render() {
  if (ctx.current && ctx.current.unmount) ctx.current.unmount();
  ctx.current = null;
  shownGame = null;
  keepAwake(false);
  banner.hidden = true;
  ginSeen = null;
  const hash = location.hash || "#/games";
  const [, route, arg] = hash.split("/");
  for (const a of document.querySelectorAll("#nav a")) {
    a.setAttribute("aria-current", a.dataset.nav === route ? "page" : "false");
  }
  view.replaceChildren();
  updateRole();
  // A scanned QR code (?code=...) always pairs again, so a stale key is replaced.
  if (new URLSearchParams(location.search).get("code") && route !== "board" && route !== "host") {
    return mountJoin(view);
  }
  try {
    if (route === "join") return mountJoin(view);
    if (route === "new" && !paired()) return mountJoin(view, "Join the table to start a game.");
    if (route === "new") return await mountNew(view, arg);
    if (route === "play") return await mountPlayNew(view, ctx);
    if (route === "board") return await mountBoard(view);
    if (route === "host") return await mountHost(view);
    if (route === "history") return await mountHistory(view, ctx, arg);
    if (route === "stats") return await mountStats(view, ctx, arg);
    if (route === "game" && arg) return await mountGame(view, decodeURIComponent(arg));
    if (route === "outings") { ctx.current = await mountOutings(view, ctx); return; }
    if (route === "outing" && arg) { ctx.current = await mountOuting(view, ctx, decodeURIComponent(arg)); return; }
    return await mountGames(view);
  } catch (err) {
    if (err instanceof api.NetError) return mountOffline(view);
    view.replaceChildren(h("section", { class: "panel" },
      h("h1", null, "Cannot show this page"),
      h("p", { class: "field-error" }, err.message),
      h("button", { type: "button", class: "btn", onclick: render }, "Try again")));
  }
}

// ---- offline: the page opened (kept by the browser) but the companion does not answer --------
function mountOffline(main) {
  main.replaceChildren(h("section", { class: "panel offline", id: "offline" },
    h("h1", null, "The companion is not answering"),
    h("p", null, "This phone has lost the companion: it may be switched off or restarting, or the phone is on another Wi-Fi."),
    h("p", { class: "muted" }, "Nothing is lost: the scores are kept on the companion, and anything typed here stays in its form. This page connects again by itself as soon as the companion is back."),
    h("button", { type: "button", class: "btn primary", id: "offline-retry", onclick: () => render() }, "Try again now")));
  // back online: show what was asked for
  ctx.current = { update: () => { if (connEl.dataset.state === "online") render(); } };
}

// ---- join ------------------------------------------------------------------------------
function mountJoin(main, why) {
  const params = new URLSearchParams(location.search);
  const draft = loadDraft("join", { code: "", name: localStorage.getItem("gingo.name") || "" });
  if (params.get("code")) draft.code = params.get("code");
  const code = h("input", { id: "join-code", name: "code", inputmode: "numeric", autocomplete: "one-time-code", value: draft.code, "aria-describedby": "join-code-error" });
  const name = h("input", { id: "join-name", name: "name", autocomplete: "nickname", value: draft.name, placeholder: "e.g. Ana's phone" });
  const err = fieldError("join-code-error");
  const save = () => saveDraft("join", { code: code.value, name: name.value });
  code.addEventListener("input", save);
  name.addEventListener("input", save);
  async function join(ev) {
    if (ev) ev.preventDefault();
    const c = code.value.trim();
    if (!c) { showError(err, "Type the pairing code shown on the companion's screen or terminal."); code.focus(); return; }
    try {
      const res = await api.post("/api/v1/pair", { code: c, name: name.value.trim() || "phone" });
      api.setToken(res.token, res.id);
      updateRole();
      localStorage.setItem("gingo.name", name.value.trim());
      clearDraft("join");
      if (params.get("code")) history.replaceState(null, "", location.pathname + "#/games");
      ctx.navigate("#/games");
    } catch (e) {
      showError(err, e instanceof api.NetError ? "No connection to the companion. Check the Wi-Fi and try again." : e.message);
    }
  }
  main.append(h("section", { class: "panel join" },
    h("h1", null, "Join the table"),
    why ? h("p", { id: "join-why" }, why) : null,
    h("p", { class: "muted" }, "Scan the QR code on the companion, or type the pairing code it shows."),
    h("form", { onsubmit: join, novalidate: true },
      h("label", { for: "join-code" }, "Pairing code"), code, err,
      h("label", { for: "join-name" }, "Name for this phone (optional)"), name,
      h("button", { type: "submit", class: "btn primary", id: "join-btn" }, "Join")),
    paired() ? null : h("p", { class: "help" }, "Only here to follow the scores? ",
      h("a", { href: "#/games", id: "just-watch" }, "Watch without joining"), ": the games, score sheets and the board, read-only.")));
  if (params.get("code")) join();
}

// ---- game list ---------------------------------------------------------------------------
export { playerNames };

async function mountGames(main) {
  const list = h("ul", { class: "game-list", id: "game-list" });
  const importErr = fieldError("import-error");
  const file = h("input", { type: "file", accept: "application/json,.json", id: "import-file", class: "visually-hidden" });
  file.addEventListener("change", async () => {
    const f = file.files[0];
    if (!f) return;
    try {
      const data = JSON.parse(await f.text());
      const res = await write("POST", "/api/v1/games/import", data, { clientId: false });
      const g = res && (res.game || res);
      showError(importErr, "");
      if (g && g.id !== undefined) ctx.navigate(`#/game/${g.id}`);
    } catch (e) {
      showError(importErr, e instanceof SyntaxError ? `${f.name} is not a JSON export` : e.message);
    }
  });
  main.append(h("section", { class: "panel" },
    h("div", { class: "row-between" }, h("h1", null, "Games"),
      paired() ? h("a", { class: "btn primary", href: "#/new", id: "new-game" }, "New game") : null),
    list,
    h("div", { class: "actions" },
      h("a", { class: "btn", href: "#/history", id: "history-link" }, "History"),
      h("a", { class: "btn", href: "#/stats", id: "stats-link" }, "Players and statistics"),
      h("a", { class: "btn", href: "#/outings", id: "outings-link" }, "Outings (more than two)"),
      paired() ? h("label", { for: "import-file", class: "btn" }, "Import a game (JSON)") : null, paired() ? file : null),
    importErr));
  async function update(msgs, first) {
    let games;
    try { games = gamesOf(await api.get("/api/v1/games?limit=100")); }
    catch (e) { if (first && e instanceof api.NetError) throw e; return; }
    const variants = await variantsOf(ctx);
    list.replaceChildren(...(games.length ? games.slice().reverse().map(g => gameItem(g, variants))
      : [h("li", { class: "muted" }, "No games yet.")]));
  }
  ctx.current = { update };
  await update(null, true);
}

export function winnerName(game, names) { return winnerOf(game, names, ctx.variants); }

function optionLabel(name) {
  const t = name.replace(/_/g, " ");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// ---- new game ----------------------------------------------------------------------------

export function normVariants(data) {
  let list = data && (data.variants || data);
  if (list && !Array.isArray(list)) list = Object.entries(list).map(([name, v]) => Object.assign({ name }, v));
  return (list || []).map(v => {
    const name = v.name || v.id || v.variant;
    let presets = v.presets || [];
    let presetValues = {};
    if (!Array.isArray(presets)) { presetValues = presets; presets = Object.keys(presets); }
    presets = presets.map(p => typeof p === "string" ? p : (presetValues[p.name] = p.options || p.values || {}, p.name));
    let options = v.options || [];
    if (!Array.isArray(options)) options = Object.entries(options).map(([n, o]) => Object.assign({ name: n }, o));
    return {
      name, label: v.label || v.title || name,
      presets, presetValues, presetLabels: Object.fromEntries((v.preset_list || []).map(p => [p.name, p.label])),
      seatWord: v.seat_word || "player", defaultPlayers: v.default_players || null, sides: v.sides || null,
      defaultPreset: v.default_preset || v.defaultPreset || presets[0] || null,
      options, players: v.players || null,
    };
  });
}

async function mountNew(main, arg) {
  if (!ctx.variants) ctx.variants = normVariants(await api.get("/api/v1/variants"));
  const variants = ctx.variants;
  const known = await knownPlayers();
  let lastFocus = null;
  const draft = loadDraft("new", { variant: "gin", preset: null, options: {}, players: [], dealer: 0, count: null });
  const form = h("form", { class: "panel", novalidate: true, id: "new-form" });
  const err = fieldError("new-error");
  main.append(form);

  function counts(v) {
    if (v.name === "gin") return [2, 4];  // four: the partnership (two teams)
    if (v.players) {
      if (Array.isArray(v.players)) return v.players;
      if (typeof v.players === "object" && "min" in v.players) {
        const out = []; for (let n = v.players.min; n <= v.players.max; n++) out.push(n);
        if (v.players.default) out.sort((a, b) => (b === v.players.default) - (a === v.players.default));
        return out;
      }
    }
    return [2];
  }

  function draw() {
    const v = variants.find(x => x.name === draft.variant) || variants[0];
    draft.variant = v.name;
    if (!v.presets.includes(draft.preset)) draft.preset = v.defaultPreset;
    const ns = counts(v);
    if (!ns.includes(draft.count)) {
      // The rule set's own player count (Ginski: 3) is the starting choice.
      const pv = (v.presetValues[draft.preset] || {}).players;
      const opt = v.options.find(o => o.name === "players");
      const def = pv ?? (opt ? opt.default : null);
      draft.count = ns.includes(def) ? def : ns[0];
    }
    while (draft.players.length < draft.count) draft.players.push("");
    saveDraft("new", draft);
    const kids = [h("h1", null, "New game")];
    kids.push(h("div", { class: "label" }, "Game"), seg(variants.map(x => [x.name, x.label]), v.name, (val) => { draft.variant = val; draft.options = {}; draft.count = null; draw(); }, "variant"));
    if (v.presets.length > 1) {
      const sel = h("select", { id: "preset", name: "preset" }, ...v.presets.map(p => h("option", { value: p, selected: p === draft.preset }, v.presetLabels[p] || p)));
      sel.addEventListener("change", () => { draft.preset = sel.value; draft.options = {}; draft.count = null; draw(); });
      kids.push(h("label", { for: "preset" }, "Rule set (preset)"), sel);
    }
    if (ns.length > 1) {
      kids.push(h("div", { class: "label" }, "Players"), seg(ns.map(n => [n, v.name === "gin" && n === 4 ? "4 (partnership)" : v.seatWord === "side" && n === 4 ? "4 (teams)" : String(n)]), draft.count, (n) => { draft.count = Number(n); draw(); }, "number of players"));
    }
    const partnership = v.name === "gin" && draft.count === 4;
    if (partnership) kids.push(h("p", { class: "help", id: "partnership-help" }, "Partnership: players 1 and 3 are team A, players 2 and 4 team B. Each hand is two games at once (1 v 2 and 3 v 4), entered together."));
    const names = [];
    for (let i = 0; i < draft.count; i++) {
      let label = `Player ${i + 1}`;
      const sides = v.sides && v.sides[String(draft.count)];
      if (sides) {
        const side = Object.keys(sides).find(k => sides[k].includes(i));
        label = sides[side].length > 1 ? `Side ${side}, player ${sides[side].indexOf(i) + 1} (seat ${i + 1})` : `Side ${side} (seat ${i + 1})`;
      }
      if (partnership) label = `Team ${i % 2 ? "B" : "A"}, player ${i < 2 ? 1 : 2} (seat ${i + 1})`;
      const inp = h("input", { id: `player-${i}`, name: `player-${i}`, value: draft.players[i] || "", placeholder: label,
        autocomplete: "off", list: known.length ? "known-players" : null });
      inp.addEventListener("input", () => { draft.players[i] = inp.value; saveDraft("new", draft); drawDealer(); drawPicks(); });
      inp.addEventListener("focus", () => { lastFocus = i; });
      names.push(h("label", { for: `player-${i}` }, label), inp);
    }
    kids.push(...names);
    // Players are people across games: a tap on an earlier player's name fills the next seat.
    if (known.length) kids.push(h("datalist", { id: "known-players" }, ...known.map(n => h("option", { value: n }))),
      h("div", { id: "player-picks" }));
    const dealerBox = h("div", { id: "dealer-box" });
    kids.push(dealerBox);
    const opts = v.options.filter(o => !o.hidden && o.name !== "players");
    if (opts.length) {
      const det = h("details", { class: "options" }, h("summary", null, `House rules (${opts.length})`));
      const presetVals = v.presetValues[draft.preset] || {};
      for (const o of opts) {
        const id = `opt-${o.name.replace(/[^a-z0-9_-]/gi, "_")}`;
        const def = o.name in presetVals ? presetVals[o.name] : (o.defaults && draft.preset in o.defaults ? o.defaults[draft.preset] : o.default);
        const cur = o.name in draft.options ? draft.options[o.name] : def;
        let input;
        if (o.choices && o.choices.length) {
          input = h("select", { id }, ...o.choices.map((c, i) => h("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(cur) }, (o.choice_labels && o.choice_labels[i]) || (typeof c === "string" ? c.replace(/_/g, " ") : String(c)))));
        } else if (typeof def === "boolean") {
          input = h("input", { id, type: "checkbox", checked: !!cur });
        } else if (typeof def === "number" || o.type === "int" || o.type === "number") {
          input = h("input", { id, type: "number", inputmode: "numeric", value: cur ?? "" });
        } else {
          input = h("input", { id, value: cur ?? "" });
        }
        input.addEventListener("change", () => {
          let val;
          if (input.type === "checkbox") val = input.checked;
          else if (input.tagName === "SELECT") val = JSON.parse(input.value);
          else if (input.type === "number") val = input.value === "" ? null : Number(input.value);
          else val = input.value;
          if (JSON.stringify(val) === JSON.stringify(def)) delete draft.options[o.name]; else draft.options[o.name] = val;
          saveDraft("new", draft);
        });
        const help = (o.help || "").trim();
        // the default in the same words as the choices (never an option code)
        const di = o.choices ? o.choices.findIndex(c => JSON.stringify(c) === JSON.stringify(def)) : -1;
        const defText = typeof def === "boolean" ? (def ? "on" : "off") : def === null || def === undefined ? "none"
          : di >= 0 ? ((o.choice_labels && o.choice_labels[di]) || String(def).replace(/_/g, " ")) : String(def);
        det.append(h("div", { class: "option" + (input.type === "checkbox" ? " check" : "") },
          h("label", { for: id }, o.label || optionLabel(o.name)), input,
          h("p", { class: "help" }, help + (help && !/[.!?)]$/.test(help) ? "." : "") + ` Default: ${defText}.`)));
      }
      kids.push(det);
    }
    kids.push(err, h("button", { type: "submit", class: "btn primary", id: "start-game" }, "Start the game"));
    form.replaceChildren(...kids);
    drawDealer();
    drawPicks();
  }
  function drawPicks() {
    const box = form.querySelector("#player-picks");
    if (!box) return;
    const taken = new Set(draft.players.slice(0, draft.count).map(n => n.trim().toLowerCase()).filter(Boolean));
    const free = known.filter(n => !taken.has(n.toLowerCase())).slice(0, 30);
    box.replaceChildren(...(free.length ? [h("div", { class: "label", id: "picks-label" }, "Earlier players: tap to seat"),
      h("div", { class: "player-picks-row", role: "group", "aria-labelledby": "picks-label" }, ...free.map(n =>
        h("button", { type: "button", class: "player-pick", dataset: { name: n }, onclick: () => seat(n) }, n)))] : []));
  }
  function seat(name) {
    const names = draft.players.slice(0, draft.count);
    let i = lastFocus !== null && lastFocus < draft.count && !names[lastFocus].trim() ? lastFocus : names.findIndex(n => !n.trim());
    if (i < 0) i = draft.count - 1;
    draft.players[i] = name;
    lastFocus = null;
    saveDraft("new", draft);
    draw();
    const next = draft.players.slice(0, draft.count).findIndex(n => !n.trim());
    if (next >= 0) form.querySelector(`#player-${next}`).focus({ preventScroll: true });
  }
  function drawDealer() {
    const box = form.querySelector("#dealer-box");
    if (!box) return;
    const names = draft.players.slice(0, draft.count).map((n, i) => n.trim() || `Player ${i + 1}`);
    if (draft.dealer >= draft.count) draft.dealer = 0;
    const sel = h("select", { id: "dealer" }, ...names.map((n, i) => h("option", { value: i, selected: i === draft.dealer }, n)));
    sel.addEventListener("change", () => { draft.dealer = Number(sel.value); saveDraft("new", draft); });
    box.replaceChildren(h("label", { for: "dealer" }, "First dealer"), sel);
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const names = draft.players.slice(0, draft.count).map(n => n.trim());
    const missing = names.findIndex(n => !n);
    if (missing >= 0) { showError(err, `Type a name for player ${missing + 1}.`); form.querySelector(`#player-${missing}`).focus(); return; }
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) { showError(err, `Two players are called ${dup}: give each a different name.`); return; }
    // The player count comes from the names; the service derives the "players" option.
    const options = Object.assign({}, draft.options);
    delete options.players;
    if (draft.variant === "gin") {  // four players are the partnership; two are never one
      if (names.length === 4) options.team_mode = "pagat_partnership";
      else if (options.team_mode === "pagat_partnership") delete options.team_mode;
    }
    const body = { variant: draft.variant, players: names, options, dealer: draft.dealer };
    if (draft.preset) body.preset = draft.preset;
    try {
      const res = await write("POST", "/api/v1/games", body);
      const g = res.game || res;
      clearDraft("new");
      ctx.navigate(`#/game/${g.id}`);
    } catch (e) { showError(err, e.message); }
  });
  draw();
}

// ---- one game ----------------------------------------------------------------------------
async function mountGame(main, id) {
  const game = await api.get(`/api/v1/games/${encodeURIComponent(id)}`);
  const g = game.game || game;
  if (g.mode === "dealt") { ctx.current = await mountPlay(main, g, ctx); return; }
  if (g.outing) main.append(h("p", { class: "no-print" }, h("a", { class: "btn small", href: `#/outing/${encodeURIComponent(g.outing)}`, id: "outing-link" }, "Back to the outing")));
  ctx.current = g.team_mode === "pagat_partnership" ? mountTeams(main, g, ctx)
    : rulesOf(g).play_style === "actions" ? await mountGingo(main, g, ctx) : mountRummy(main, g, ctx);
  shownGame = g.id;
  keepAwake(!g.finished);
}

// ---- board and simulator ---------------------------------------------------------------------
async function mountBoard(main) {
  const box = h("div", { id: "board-box" });
  const note = h("p", { class: "muted", id: "sim-note" });
  const err = fieldError("board-error");
  main.append(h("section", { class: "panel" }, h("h1", null, "Board"), note, box, err));
  let latest = null;
  const frames = new Map();
  function draw(board) {
    board = withPending(board);
    latest = board;
    const sim = isSim();
    note.textContent = sim ? "Simulated board: tap a space to put a side 1 chip, tap again for side 2, again to lift it."
      : `Sensors: ${ctx.health ? ctx.health.sensors : "unknown"}.`;
    box.replaceChildren(boardView(board, { sim, names: null, onTap: tap, frames: frames.get(board.game) || null }));
    showGin(board, null);
  }
  async function update() {
    try { ctx.health = await api.get("/api/v1/health"); } catch { /* keep the last */ }
    const board = await loadBoard();
    if (!board) { note.textContent = "No connection to the companion."; return; }
    if (board.game && !frames.has(board.game)) {  // the suit rows name each space's cards
      try { const g = await api.get(`/api/v1/games/${encodeURIComponent(board.game)}`); frames.set(board.game, (g.state && g.state.frames) || g.frames || null); }
      catch { /* named by row and column meanwhile */ }
    }
    draw(board);
  }
  async function tap(space) {
    const next = nextSimChip(latest, space);
    try {
      await write("POST", "/api/v1/board/sim", { space, side: next }, { clientId: false });
      showError(err, "");
      noteSimTap(space, next);
      draw(latest);
    } catch (e) { showError(err, e.message); }
  }
  ctx.current = { update };
  await update();
}

// ---- host settings: paired phones and games, behind the host code ----------------------------
function when(t) {
  if (!t) return "never";
  const d = new Date(t * 1000);
  return d.toLocaleDateString(undefined, { day: "numeric", month: "short" }) + " " + d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

// A button that asks once more before it acts: the first tap arms it, the second acts.
// `armed` (a Set of keys) keeps the first tap when the list is redrawn meanwhile. Its
// spoken name starts with the words it shows ("Remove", "Yes, remove"), then says what.
function armedButton(text, confirmText, what, armed, key, act) {
  const on = armed.has(key);
  const b = h("button", { type: "button", class: "btn small danger", dataset: { armed: on ? "1" : "0" }, "aria-label": `${on ? confirmText : text} ${what}` }, on ? confirmText : text);
  b.addEventListener("click", async () => {
    if (!armed.has(key)) {
      armed.add(key); b.dataset.armed = "1"; b.textContent = confirmText; b.setAttribute("aria-label", `${confirmText} ${what}`);
      return;
    }
    armed.delete(key);
    b.disabled = true;
    try { await act(); } finally { b.disabled = false; }
  });
  return b;
}

async function mountHost(main) {
  const code = h("input", { id: "host-code", type: "password", autocomplete: "off", inputmode: "text",
    value: sessionStorage.getItem("gingo.host") || "", "aria-describedby": "host-code-error" });
  const codeErr = fieldError("host-code-error");
  const body = h("div", { id: "host-body" });
  const armed = new Set();
  const hostReq = (method, path) => api.request(method, path, undefined, { headers: { "X-Host-Code": code.value.trim() } });
  async function open(ev) {
    if (ev) ev.preventDefault();
    showError(codeErr, "");
    if (!code.value.trim()) { showError(codeErr, "Type the host code: gingo serve prints it when it starts (or set GINGO_HOST_CODE)."); return; }
    try { await hostReq("GET", "/api/v1/tokens"); }
    catch (e) {
      body.replaceChildren();
      sessionStorage.removeItem("gingo.host");
      showError(codeErr, e instanceof api.NetError ? "No connection to the companion." :
        e.status === 401 ? "That is not the host code. It is printed by gingo serve when it starts, next to the pairing code." : e.message);
      return;
    }
    sessionStorage.setItem("gingo.host", code.value.trim());
    await update();
  }
  async function update() {
    if (!sessionStorage.getItem("gingo.host")) return;
    let tokens, games;
    try {
      tokens = (await hostReq("GET", "/api/v1/tokens")).tokens || [];
      games = gamesOf(await api.get("/api/v1/games"));
      await variantsOf(ctx);
    } catch (e) { if (!(e instanceof api.NetError)) showError(codeErr, e.message); return; }
    const err = fieldError("host-error");
    const mine = api.tokenId();
    const phones = h("ul", { class: "game-list", id: "token-list" }, ...(tokens.length ? tokens.map(t => h("li", { dataset: { token: t.id }, class: "row-between" },
      h("span", null, h("strong", null, t.name || "phone"), t.id === mine ? h("small", { class: "muted" }, " (this phone)") : null,
        h("br"), h("small", { class: "muted" }, `paired ${when(t.created)} · last used ${when(t.last_used)}`)),
      armedButton("Remove", "Yes, remove", t.name || "phone", armed, "t:" + t.id, async () => {
        try { await hostReq("DELETE", `/api/v1/tokens/${encodeURIComponent(t.id)}`); toast(`${t.name || "phone"} removed: it must pair again`); }
        catch (e) { showError(err, e.message); }
        if (t.id === mine) { api.setToken(""); }
        await update();
      }))) : [h("li", { class: "muted" }, "No phones paired.")]));
    const gameItems = games.slice().reverse().map(g => h("li", { dataset: { game: g.id }, class: "row-between" },
      h("span", null, h("strong", null, gameLabel(g, ctx.variants)), " ", playerNames(g).join(" · "),
        h("br"), h("small", { class: "muted" }, g.finished ? "finished" : "in play")),
      armedButton("Delete", "Yes, delete", `game ${playerNames(g).join(" · ")}`, armed, "g:" + g.id, async () => {
        try { await hostReq("DELETE", `/api/v1/games/${encodeURIComponent(g.id)}`); toast("Game deleted"); }
        catch (e) { showError(err, e.message); }
        await update();
      })));
    body.replaceChildren(
      h("h2", null, "Paired phones"),
      h("p", { class: "help" }, "A removed phone can no longer enter anything; it must type the pairing code again."),
      phones,
      h("h2", null, "Games"),
      h("p", { class: "help" }, "A deleted game leaves the list; its entries stay in the companion's log."),
      h("ul", { class: "game-list", id: "host-games" }, ...(gameItems.length ? gameItems : [h("li", { class: "muted" }, "No games.")])),
      err,
      h("button", { type: "button", class: "btn", id: "host-lock", onclick: () => { sessionStorage.removeItem("gingo.host"); code.value = ""; body.replaceChildren(); } }, "Lock the host settings"));
  }
  const pairErr = fieldError("pair-code-error");
  if (api.token()) main.append(h("section", { class: "panel" },
    h("h1", null, "Pair another phone"),
    h("p", { class: "help" }, "Shows a new pairing code here (the old one stops working). A long press of the board's confirm button does the same on every paired phone."),
    h("button", { type: "button", class: "btn primary", id: "new-pair-code", onclick: (ev) => newPairCode(pairErr, ev.currentTarget) }, "New pairing code"),
    pairErr));
  main.append(h("section", { class: "panel" },
    h("h1", null, "Host settings"),
    h("p", { class: "muted" }, "For whoever runs the companion: the host code is printed by gingo serve when it starts."),
    h("form", { onsubmit: open, novalidate: true },
      h("label", { for: "host-code" }, "Host code"), code, codeErr,
      h("button", { type: "submit", class: "btn primary", id: "host-open" }, "Open the settings")),
    body));
  ctx.current = { update };
  if (sessionStorage.getItem("gingo.host")) await update();
}

// ---- wide sheets: a sheet wider than the phone scrolls in its own box and says so ------------
function markWideSheets() {
  for (const wrap of view.querySelectorAll(".sheet-wrap")) {
    const wide = wrap.scrollWidth > wrap.clientWidth + 1;
    if ((wrap.dataset.overflow === "1") === wide) continue;
    wrap.dataset.overflow = wide ? "1" : "0";
    let hint = wrap.previousElementSibling;
    if (!hint || !hint.classList.contains("scroll-hint")) {
      hint = h("p", { class: "scroll-hint", "aria-hidden": "true" }, "More columns: swipe the sheet sideways ⇆");
      wrap.before(hint);
    }
    hint.hidden = !wide;
    if (wide) {
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", "Score sheet (scrolls sideways)");
      wrap.tabIndex = 0;
    } else {
      wrap.removeAttribute("role");
      wrap.removeAttribute("aria-label");
      wrap.removeAttribute("tabindex");
    }
  }
}
let wideTimer = null;
new MutationObserver(() => { clearTimeout(wideTimer); wideTimer = setTimeout(markWideSheets, 50); })
  .observe(view, { childList: true, subtree: true });
window.addEventListener("resize", () => { clearTimeout(wideTimer); wideTimer = setTimeout(markWideSheets, 50); });

// ---- the page shell kept for a reload while the companion is down (sw.js) --------------------
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("sw.js").catch(() => { /* the page works without it */ });
}

// ---- start -------------------------------------------------------------------------------
updateOutbox();
live.start();
render();
