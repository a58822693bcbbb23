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
