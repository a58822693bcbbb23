// Remote play: a loud bar while the other board of a remote game is offline (or this
// board cannot reach the broker). The game waits; nobody forfeits. GET /api/v1/remote says
// who is online; the live channel's {"type": "remote"} messages say when that changes.
import * as api from "./api.js";

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
  const down = (info.games || []).filter(g => !g.peer_online);
  if (info.status === "off" || down.length === 0) {
    bar.hidden = true;
    bar.textContent = "";
    return;
  }
  const who = info.status !== "online" ? "The remote broker cannot be reached"
    : `The other board (${down.map(g => g.peer || "not joined yet").join(", ")}) is offline`;
  bar.textContent = `${who}: the remote game waits, nobody loses by it. Moves on the other board's side wait too.`;
  bar.hidden = false;
}
