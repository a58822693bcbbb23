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

function messageOf(body, status) {
  if (body && body.error) {
    const e = body.error;
    return [e.code || String(status), e.message || JSON.stringify(e), e];
  }
  if (body && body.detail) {
    // FastAPI validation errors: a list of {loc, msg}.
    if (Array.isArray(body.detail)) {
      const m = body.detail.map(d => (d.loc ? d.loc.slice(1).join(".") + ": " : "") + d.msg).join("; ");
      return ["invalid", m, body.detail];
    }
    return [String(status), String(body.detail), body.detail];
  }
  return [String(status), `the server answered ${status}`, null];
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
    const [code, message, detail] = messageOf(data, res.status);
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
