// Joining the table: the pairing code (typed, or from a scanned QR code) gives this phone
// its key to score; without one it watches.

import * as api from "./api.js";
import { h, fieldError, showError, loadDraft, saveDraft, clearDraft } from "./ui.js";

export function mountJoin(main, ctx, why) {
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
      ctx.updateRole();
      localStorage.setItem("gingo.name", name.value.trim());
      clearDraft("join");
      if (params.get("code")) history.replaceState(null, "", location.pathname + "#/games");
      ctx.navigate("#/games");
    } catch (e) {
      showError(err, e instanceof api.NetError ? "No connection to the companion. Check the Wi-Fi and try again." : api.says(e));
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
    ctx.paired() ? null : h("p", { class: "help" }, "Only here to follow the scores? ",
      h("a", { href: "#/games", id: "just-watch" }, "Watch without joining"), ": the games, score sheets and the board, read-only.")));
  if (params.get("code")) join();
}
