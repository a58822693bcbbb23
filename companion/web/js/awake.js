// Keeping the screen on during a game (the Screen Wake Lock API, where the browser has it:
// it needs a secure page, https or the companion's own screen at localhost). The lock is
// let go by the browser when the page is hidden, so it is asked for again when it shows.
// document.body.dataset.awake says how it stands: "on", "off", "unsupported" or "refused".

let wanted = false;
let sentinel = null;

function mark(state) { document.body.dataset.awake = state; }

export function wakeLockSupported() { return "wakeLock" in navigator && window.isSecureContext; }

async function take() {
  if (!wanted || sentinel || document.visibilityState !== "visible") return;
  try {
    const s = await navigator.wakeLock.request("screen");
    if (!wanted) { s.release(); return; }
    sentinel = s;
    mark("on");
    s.addEventListener("release", () => { if (sentinel === s) { sentinel = null; if (wanted) mark("off"); } });
  } catch { mark("refused"); }
}

export async function keepAwake(on) {
  wanted = !!on;
  if (!wakeLockSupported()) { mark(wanted ? "unsupported" : "off"); return; }
  if (wanted) { await take(); return; }
  const s = sentinel;
  sentinel = null;
  mark("off");
  if (s) { try { await s.release(); } catch { /* released already */ } }
}

document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") take(); });
