// Small DOM helpers shared by the views.

import { announce } from "./announce.js";

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (v === true) el.setAttribute(k, "");
      else el.setAttribute(k, String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

export function fieldError(id) {
  return h("p", { class: "field-error", id, role: "alert", "aria-live": "polite", hidden: true });
}

export function showError(el, message) {
  if (!el) return;
  el.textContent = message || "";
  el.hidden = !message;
}

export function toast(message, kind = "info") {
  let box = document.getElementById("toast");
  if (!box) {
    box = h("section", { id: "toast", class: "toast", "aria-label": "Message" });  // read out through the page's one live region
    document.body.appendChild(box);
  }
  box.textContent = message;
  announce(message);
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(box._t);
  box._t = setTimeout(() => { box.hidden = true; }, 4000);
}

// Form drafts survive a reload and a lost connection: they live in localStorage.
export function loadDraft(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem("gingo.draft." + key) || "null");
    return v === null ? fallback : Object.assign(fallback, v);
  } catch { return fallback; }
}
export function saveDraft(key, value) {
  localStorage.setItem("gingo.draft." + key, JSON.stringify(value));
}
export function clearDraft(key) { localStorage.removeItem("gingo.draft." + key); }

// What the companion says about a game's rules (its "rules" block, from the games
// registry): label, play style, deck, hand sizes, the entries a hand takes, its words.
export function rulesOf(game) {
  const r = (game && game.rules) || {};
  return Object.assign({ label: (game && game.variant) || "", play_style: "hands", seat_word: "player",
    entries: {}, hand_sizes: { deal: 10, big: null }, gin_word: "gin", big_word: "big gin", big_bonus: 0,
    sides: null, deck: null }, r);
}
export function labelOf(game) { return rulesOf(game).label; }

export function seg(options, current, onPick, label) {
  // A segmented control of toggle buttons (each at least 44 px).
  const g = h("div", { class: "seg", role: "group", "aria-label": label });
  for (const [value, text] of options) {
    g.appendChild(h("button", {
      type: "button", "aria-pressed": String(value) === String(current) ? "true" : "false",
      dataset: { value: String(value) }, onclick: () => onPick(value),
    }, text));
  }
  return g;
}

// A buzz on a gin where the phone has a vibration motor and the browser allows it.
export function buzz() {
  try { if ("vibrate" in navigator && typeof navigator.vibrate === "function") navigator.vibrate([120, 60, 120]); }
  catch { /* not allowed here: the page says it anyway */ }
}
