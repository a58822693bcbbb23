// HTTP client for API contract v1. Errors come back as ApiError (the server answered
// with 4xx/5xx: the engine's message is kept) or NetError (no answer: keep the entry).

export class ApiError extends Error {
  constructor(status, code, message, detail) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    // what a program acts on (never the wording): e.g. a chip shortfall's side, supply, need, cards
    this.details = (detail && typeof detail === "object" && !Array.isArray(detail) && detail.details) || {};
  }
}

export class NetError extends Error {}

const store = window.localStorage;

export function token() { return store.getItem("gingo.token") || ""; }
export function setToken(t, id) {
  if (t) store.setItem("gingo.token", t); else store.removeItem("gingo.token");
  if (t && id) store.setItem("gingo.tokenId", id); else store.removeItem("gingo.tokenId");
}
export function tokenId() { return store.getItem("gingo.tokenId") || ""; }

export function newClientId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return "c-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
}

// The server always answers a refusal as {"error": {"code", "message", "details"}}; anything
// else (a proxy's page, an empty body) is named by its status alone.
function errorOf(body, status) {
  const e = body && typeof body === "object" && body.error && typeof body.error === "object" ? body.error : null;
  if (e) return [e.code || `http_${status}`, e.message || `the companion answered ${status}`, e];
  return [`http_${status}`, `the companion answered ${status}`, null];
}

// What a phone says for each refusal, by its code (codes never change; the server's words
// may): a sentence, or a function of the error's details and the server's message. A code
// not listed here shows the server's own message, which names the rule.
export const WORDS = {
  stale_version: "The game changed on another phone first: check what changed and enter again.",
  finished: "This match is over: start a rematch, or correct a hand.",
  nothing_to_undo: "There is nothing to undo in this game.",
  nothing_to_redo: "There is nothing to redo: an entry made after the undo ends what can be redone.",
  client_id_reused: "This phone sent that entry once already for something else: enter it again.",
  outing_round_played: (d, m) => `This round of the outing has been played: ${m}`,
  outing_has_games: "This outing has games already: undo their hands first.",
  outing_game: (d, m) => m,
  dealt_no_undo: "A dealt game cannot undo: every card seen stays seen. Play on, or start a new game.",
  board_pending: (d, m) => `Waiting for the board: ${m}`,
  seat_taken: (d, m) => `That seat is taken: ${m}`,
  seat_bot: "That seat is played by a bot: there is no phone to free.",
  seat_free: "That seat is free already.",
  no_seat: "This phone holds no seat in this game: take one first.",
  game_damaged: (d, m) => `This game is read-only: ${m}`,
  not_found: (d, m) => `Not found: ${m}`,
  host_code_required: "This needs the host code (printed by gingo serve when it starts).",
  too_many_attempts: "Too many tries: wait a minute and try again.",
  too_large: "That is too much to send at once.",
  storage_full: "The companion's disk is full: nothing was saved. Free some space, then send it again.",
  storage_damaged: (d, m) => `The companion's data cannot be read: ${m}`,
  storage_busy: "Another companion service holds the data folder: stop it, then try again.",
  storage: (d, m) => `The companion could not save this: ${m}`,
  internal_error: "The companion hit a bug: nothing was saved. Please report it (the companion's log has the details).",
  malformed_json: "The companion could not read what this phone sent: reload the page and try again.",
};

// The words a phone shows for an error: by its code (see WORDS), else the server's message.
export function says(err) {
  if (err instanceof NetError) return "No connection to the companion: try again when the status shows online.";
  if (!(err instanceof ApiError)) return String((err && err.message) || err);
  const w = Object.prototype.hasOwnProperty.call(WORDS, err.code) ? WORDS[err.code] : null;
  if (typeof w === "function") return w(err.details || {}, err.message);
  return w || err.message;
}

export async function request(method, path, body, opts = {}) {
  const headers = Object.assign({ "Accept": "application/json" }, opts.headers || {});
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const t = token();
  if (t) headers["Authorization"] = "Bearer " + t;
  let res;
  try {
    res = await fetch(path, {
      method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: opts.signal,
    });
  } catch (err) {
    throw new NetError("no connection to the companion");
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = text; }
  }
  if (!res.ok) {
    const [code, message, detail] = errorOf(data, res.status);
    throw new ApiError(res.status, code, message, detail);
  }
  return data;
}

export const get = (p) => request("GET", p);
export const post = (p, b) => request("POST", p, b === undefined ? {} : b);
export const put = (p, b) => request("PUT", p, b);

// Writes that could not reach the server wait here (in localStorage) and are sent again
// with the same client_id when the connection returns, so a retry never applies twice.
const OUTBOX = "gingo.outbox";

export function outbox() {
  try { return JSON.parse(store.getItem(OUTBOX) || "[]"); } catch { return []; }
}
function saveOutbox(list) { store.setItem(OUTBOX, JSON.stringify(list)); }

export function queueWrite(method, path, body, label) {
  const list = outbox();
  list.push({ method, path, body, label, at: Date.now() });
  saveOutbox(list);
}

// Sends queued writes in order. Stops at the first network failure; a write the server
// refuses (4xx) is dropped from the queue and reported through onRejected.
export async function flushOutbox(onRejected) {
  let list = outbox();
  let sent = 0;
  while (list.length) {
    const w = list[0];
    try {
      await request(w.method, w.path, w.body);
      sent++;
    } catch (err) {
      if (err instanceof NetError) break;
      if (onRejected) onRejected(w, err);
    }
    list = outbox().slice(1);
    saveOutbox(list);
  }
  return sent;
}
