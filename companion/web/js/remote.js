// Remote play: a loud bar while the other board of a remote game is offline (or this
// board cannot reach the broker). The game waits; nobody forfeits. GET /api/v1/remote says
// who is online; the live channel's {"type": "remote"} messages say when that changes.
import * as api from "./api.js";
import { h, fieldError, showError } from "./ui.js";

let bar = null;

export async function refreshRemote() {
  bar = bar || document.getElementById("remote-bar");
  if (!bar) return;
  let info;
  try {
    info = await api.get("/api/v1/remote");
  } catch (e) {
    return;  // the companion itself is offline: the connection mark says so
  }
  joinedInvites(info.games || []);
  const games = (info.games || []).filter(g => !g.finished);  // a finished game waits for nobody
  const down = games.filter(g => g.peer && !g.peer_online);
  const waiting = games.filter(g => !g.peer);
  if (info.status === "off" || (down.length === 0 && waiting.length === 0)) {
    bar.hidden = true;
    bar.textContent = "";
    return;
  }
  if (info.status !== "online") {
    bar.textContent = "The remote broker cannot be reached: the remote game waits, nobody loses by it.";
  } else if (down.length) {
    bar.textContent = `The other board (${down.map(g => g.peer).join(", ")}) is offline: the remote game ` +
      "waits, nobody loses by it.";
  } else {
    bar.textContent = "No board has joined the remote game yet: send the invite to your friend.";
  }
  bar.hidden = false;
}

// Joining a friend's remote game: the invite code from the host board's "remote" game
// (POST /api/v1/games with "remote": true there) is pasted here, on the guest board's page,
// and POST /api/v1/remote/join copies the game to this board. Shown on the games screen to a
// joined phone when this board has a [remote] section (GET /api/v1/remote says "off" if not).
// The invite is a secret: it is sent to this board only, never kept on the phone.
export async function remoteJoinPanel(ctx) {
  let info;
  try { info = await api.get("/api/v1/remote"); } catch { return null; }
  if (!info || info.status === "off" || !ctx.paired()) return null;
  const input = h("input", { id: "remote-invite", name: "invite", autocomplete: "off", autocapitalize: "off",
    spellcheck: "false", placeholder: "gingo1-…", "aria-describedby": "remote-invite-error" });
  const err = fieldError("remote-invite-error");
  const button = h("button", { type: "submit", class: "btn primary", id: "remote-join" }, "Join the game");
  async function join(ev) {
    ev.preventDefault();
    const invite = input.value.trim();
    if (!invite) { showError(err, "Paste the invite code your friend's board gave (it starts with gingo1-)."); input.focus(); return; }
    button.disabled = true;
    try {
      const res = await ctx.write("POST", "/api/v1/remote/join", { invite }, { clientId: false });
      const g = res && (res.game || res);
      showError(err, "");
      input.value = "";
      refreshRemote();
      if (g && g.id !== undefined) ctx.navigate(`#/game/${encodeURIComponent(g.id)}`);
    } catch (e) {
      showError(err, e instanceof api.NetError ? "No connection to the companion. Check the Wi-Fi and try again." : api.says(e));
    } finally {
      button.disabled = false;
    }
  }
  return h("details", { class: "options remote-join", id: "remote-join-panel" },
    h("summary", null, "Join a friend's remote game"),
    h("form", { onsubmit: join, novalidate: true },
      h("p", { class: "muted" }, "Your friend starts a remote game on their board and sends you its invite code. ",
        "Paste it here: the game comes to this board, and both boards play it."),
      h("label", { for: "remote-invite" }, "Invite code"), input, err, button));
}

// "remote: hosted by board-a" / "remote: with board-b" for a game's line (null: a local game).
export function remoteText(g) {
  const r = g && g.remote;
  if (!r || !r.role) return null;
  const peer = r.peer || "no board yet";
  return r.role === "guest" ? `remote: hosted by ${peer}` : `remote: with ${peer}`;
}

// Hosting a game for a friend at another board: the New game screen offers it when this
// board has a [remote] section (GET /api/v1/remote says "off" if not, as for the join panel).
// POST /api/v1/games with "remote": true answers the game with remote.invite; the page keeps
// that code in memory only (it is a secret: never in localStorage) and shows it above the
// game until it is hidden or the friend's board has joined. After a reload, recallInvite
// reads it again from the board (for a paired phone).
const invites = new Map();  // game id -> the remote part of the hosting answer (with its invite)

export async function remoteInfo() {
  try { return await api.get("/api/v1/remote"); } catch { return null; }
}

export function remoteOn(info) { return !!info && info.status !== "off"; }

// The option on the New game form (id "new-remote") and on the Play screen's deal form
// (id "play-remote"): a checkbox, on when `on`, that calls `change(checked)`. `more`: a
// further line of help (the deal form says which seat the friend takes).
export function hostOption(on, change, id = "new-remote", more = null) {
  const box = h("input", { id, type: "checkbox", checked: !!on, "aria-describedby": `${id}-help` });
  box.addEventListener("change", () => change(box.checked));
  return h("div", { class: "option check host-remote" },
    h("label", { for: id }, "Host it for a friend at another board"), box,
    h("p", { class: "help", id: `${id}-help` }, "Your friend plays from their own board, in their own home. ",
      "Once the game starts, this page shows an invite code to send them.", more ? ` ${more}` : ""));
}

// What the page says when hosting failed (the form keeps everything typed).
export function hostError(e) {
  if (e instanceof api.NetError) return "No connection to the companion: nothing was started. Try again when the status shows online.";
  if (e instanceof api.ApiError && e.code === "remote_not_configured")
    return "This board is not set up to play other boards: whoever looks after it adds the broker to its settings (see Two boards, one game). Nothing was started; untick the box to play here.";
  if (e instanceof api.ApiError && e.code === "remote_unreachable")
    return "This board cannot reach the remote broker just now: nothing was started. Check the internet connection and try again.";
  return api.says(e);
}

const hidden = new Set();  // game ids whose code was hidden on this page (until it reloads)

export function noteInvite(game) {
  if (game && game.id !== undefined && game.remote && game.remote.invite) invites.set(String(game.id), game.remote);
}

// A page reloaded on a game it hosts has lost the code from its memory: a paired phone of
// this (the host) board reads it again with GET .../invite, which needs the phone's token
// (the code is the right to join, unlike the game, which anyone on the network may read).
// Only while no board has joined and the game goes on; never kept in the phone's storage.
export async function recallInvite(game) {
  const gid = String(game.id);
  if (invites.has(gid) || hidden.has(gid) || game.finished || !api.token()) return;
  const info = await remoteInfo();
  const line = info && (info.games || []).find(g => String(g.id) === gid);
  if (!line || line.role !== "host" || line.peer || line.finished) return;
  try {
    const r = await api.get(`/api/v1/games/${encodeURIComponent(gid)}/invite`);
    if (r && r.invite && !r.peer) invites.set(gid, r);
  } catch { /* a revoked token, the companion away: no code to show */ }
}

// The invite of a game just hosted from this phone, above its screen (null: none held).
export function invitePanel(gid) {
  const r = invites.get(String(gid));
  if (!r) return null;
  const status = h("p", { class: "muted", id: "invite-copied", role: "status" });
  const code = h("p", { class: "invite-code", id: "invite-code", translate: "no" }, r.invite);
  async function copy() {
    try {
      await navigator.clipboard.writeText(r.invite);
      status.textContent = "Copied: paste it into a message to your friend.";
    } catch {  // a page over plain http has no clipboard API: select the code for a long-press
      const range = document.createRange();
      range.selectNodeContents(code);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      status.textContent = "The code is selected: copy it, then paste it into a message to your friend.";
    }
  }
  const panel = h("section", { class: "panel remote-invite no-print", id: "remote-invite-panel", dataset: { game: String(gid) },
    "aria-labelledby": "remote-invite-title" },
    h("h2", { id: "remote-invite-title" }, "Invite your friend"),
    h("p", null, "Send your friend this code. Tell them: on your board's Games screen, open “Join a friend's remote game”, and type this code."),
    code,
    h("div", { class: "invite-tools" },
      h("button", { type: "button", class: "btn primary", id: "invite-copy", onclick: copy }, "Copy the code"),
      h("button", { type: "button", class: "btn", id: "invite-hide", onclick: () => { invites.delete(String(gid)); hidden.add(String(gid)); panel.remove(); } }, "Hide the code")),
    status,
    r.broker && r.broker !== "online" ? h("p", { class: "field-error", id: "invite-offline" },
      "This board cannot reach the remote broker just now. The game is kept here; your friend can join as soon as the broker is back.") : null,
    h("p", { class: "muted" }, "Anyone with this code can take the other seat: send it only to your friend."));
  return panel;
}

// The friend's board joined a game whose invite this phone shows: the code gives way to who joined.
function joinedInvites(games) {
  for (const g of games) {
    if (!g.peer || !invites.has(String(g.id))) continue;
    invites.delete(String(g.id));
    const panel = document.querySelector(`#remote-invite-panel[data-game="${CSS.escape(String(g.id))}"]`);
    if (panel) panel.replaceChildren(h("p", { id: "invite-joined", role: "status" }, `${g.peer} has joined: the game is on both boards.`));
  }
}
