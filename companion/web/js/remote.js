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
