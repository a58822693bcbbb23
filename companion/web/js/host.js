// The host settings, behind the host code: the paired phones (each can be removed) and the
// games (each can be deleted), and a new pairing code for another phone.

import * as api from "./api.js";
import { h, fieldError, showError, toast } from "./ui.js";
import { gamesOf, playerNames, variantsOf, gameLabel } from "./games.js";
import { newPairCode } from "./pairing.js";

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

export async function mountHost(main, ctx) {
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
        e.status === 401 ? "That is not the host code. It is printed by gingo serve when it starts, next to the pairing code." : api.says(e));
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
    } catch (e) { if (!(e instanceof api.NetError)) showError(codeErr, api.says(e)); return; }
    const err = fieldError("host-error");
    const mine = api.tokenId();
    const phones = h("ul", { class: "game-list", id: "token-list" }, ...(tokens.length ? tokens.map(t => h("li", { dataset: { token: t.id }, class: "row-between" },
      h("span", null, h("strong", null, t.name || "phone"), t.id === mine ? h("small", { class: "muted" }, " (this phone)") : null,
        h("br"), h("small", { class: "muted" }, `paired ${when(t.created)} · last used ${when(t.last_used)}`)),
      armedButton("Remove", "Yes, remove", t.name || "phone", armed, "t:" + t.id, async () => {
        try { await hostReq("DELETE", `/api/v1/tokens/${encodeURIComponent(t.id)}`); toast(`${t.name || "phone"} removed: it must pair again`); }
        catch (e) { showError(err, api.says(e)); }
        if (t.id === mine) { api.setToken(""); }
        await update();
      }))) : [h("li", { class: "muted" }, "No phones paired.")]));
    const gameItems = games.slice().reverse().map(g => h("li", { dataset: { game: g.id }, class: "row-between" },
      h("span", null, h("strong", null, gameLabel(g, ctx.variants)), " ", playerNames(g).join(" · "),
        h("br"), h("small", { class: "muted" }, g.finished ? "finished" : "in play")),
      armedButton("Delete", "Yes, delete", `game ${playerNames(g).join(" · ")}`, armed, "g:" + g.id, async () => {
        try { await hostReq("DELETE", `/api/v1/games/${encodeURIComponent(g.id)}`); toast("Game deleted"); }
        catch (e) { showError(err, api.says(e)); }
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
