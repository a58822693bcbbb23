// Pairing another phone: a new code shows on the phones already paired (made by a long
// press of the board's confirm button, by the host, or by "New pairing code").

import * as api from "./api.js";
import { h, showError } from "./ui.js";
import { announce } from "./announce.js";

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
export async function fetchPairCode() {
  if (!api.token()) return;
  try { showPairCode(await api.get("/api/v1/pair/code")); }
  catch { /* not paired (any more): nothing to show */ }
}
export async function newPairCode(err, opener) {
  showError(err, "");
  try { showPairCode(await api.request("POST", "/api/v1/pair/code"), opener); }
  catch (e) { showError(err, e instanceof api.NetError ? "No connection to the companion." : api.says(e)); }
}
