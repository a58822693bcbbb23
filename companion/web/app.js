// Gin-Go Companion phone page: the shell (routing, connection state, theme, watching or
// scoring, the Gin banner, the offline page, wide sheets). Each screen is a module of its
// own under js/. Plain ES modules, no build step.

import * as api from "./js/api.js";
import { Live } from "./js/live.js";
import { h, toast, rulesOf, buzz } from "./js/ui.js";
import { linkedSides } from "./js/board.js";
import { mountRummy } from "./js/rummy.js";
import { mountTeams } from "./js/teams.js";
import { mountOutings, mountOuting } from "./js/outings.js";
import { mountGingo } from "./js/gingo.js";
import { mountPlay, mountPlayNew } from "./js/play.js";
import { mountHistory, mountStats } from "./js/people.js";
import { keepAwake } from "./js/awake.js";
import { keepPressesAcrossRedraws } from "./js/press.js";
import { announce, noteOwnWrite } from "./js/announce.js";
import { liveNews } from "./js/news.js";
import { variantsOf, isPartnership } from "./js/games.js";
import { fetchPairCode } from "./js/pairing.js";
import { mountJoin } from "./js/join.js";
import { mountGames } from "./js/game_list.js";
import { mountNew, normVariants } from "./js/new_game.js";
import { mountBoard } from "./js/board_screen.js";
import { mountHost } from "./js/host.js";
import { refreshRemote, invitePanel, recallInvite } from "./js/remote.js";

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
  normVariants,
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
    api.flushOutbox((w, err) => toast(`Not saved: ${w.label || "entry"}: ${api.says(err)}`, "error"))
      .then(n => { updateOutbox(); if (n) toast(`${n} waiting entr${n === 1 ? "y" : "ies"} sent`); refreshCurrent(); });
    refreshCurrent();
    refreshRemote();
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
  // the news is worded by the game's own words (its entry in /api/v1/variants), loaded once
  if (msg && msg.type === "snapshot" && !ctx.variants) variantsOf(ctx);
  for (const text of liveNews(msg, gameOnScreen(), ctx.variants)) announce(text);
  if (msg && msg.type === "token_revoked" && (!api.tokenId() || msg.id === api.tokenId())) checkToken();
  if (msg && msg.type === "pairing_code") fetchPairCode();  // the live channel never carries the code itself
  if (msg && msg.type === "remote") refreshRemote();
  if (msg && msg.game && msg.game.id === shownGame && msg.game.finished) keepAwake(false);  // the game is over
  refreshCurrent(msg);
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
ctx.updateRole = updateRole;

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
    if (err instanceof api.ApiError && err.status !== 401) announce(`Not saved. ${api.says(err)}`);
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
    return mountJoin(view, ctx);
  }
  try {
    if (route === "join") return mountJoin(view, ctx);
    if (route === "new" && !paired()) return mountJoin(view, ctx, "Join the table to start a game.");
    if (route === "new") return await mountNew(view, ctx);
    if (route === "play") return await mountPlayNew(view, ctx);
    if (route === "board") return await mountBoard(view, ctx);
    if (route === "host") return await mountHost(view, ctx);
    if (route === "history") return await mountHistory(view, ctx, arg);
    if (route === "stats") return await mountStats(view, ctx, arg);
    if (route === "game" && arg) return await mountGame(view, decodeURIComponent(arg));
    if (route === "outings") { ctx.current = await mountOutings(view, ctx); return; }
    if (route === "outing" && arg) { ctx.current = await mountOuting(view, ctx, decodeURIComponent(arg)); return; }
    return await mountGames(view, ctx);
  } catch (err) {
    if (err instanceof api.NetError) return mountOffline(view);
    view.replaceChildren(h("section", { class: "panel" },
      h("h1", null, "Cannot show this page"),
      h("p", { class: "field-error" }, api.says(err)),
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


// ---- one game ----------------------------------------------------------------------------
async function mountGame(main, id) {
  const game = await api.get(`/api/v1/games/${encodeURIComponent(id)}`);
  const g = game.game || game;
  await recallInvite(g);  // a game this board hosts, after a reload: its code read again (a paired phone)
  const invite = invitePanel(g.id);  // a game hosted here for a friend: its invite code
  if (invite) main.append(invite);
  if (g.mode === "dealt") { ctx.current = await mountPlay(main, g, ctx); return; }
  if (g.outing) main.append(h("p", { class: "no-print" }, h("a", { class: "btn small", href: `#/outing/${encodeURIComponent(g.outing)}`, id: "outing-link" }, "Back to the outing")));
  ctx.current = isPartnership(g) ? mountTeams(main, g, ctx)
    : rulesOf(g).play_style === "actions" ? await mountGingo(main, g, ctx) : mountRummy(main, g, ctx);
  shownGame = g.id;
  keepAwake(!g.finished);
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
keepPressesAcrossRedraws();
updateOutbox();
live.start();
render();
