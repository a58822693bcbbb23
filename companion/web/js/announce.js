// What the page says to a screen reader without moving the focus: one polite live region
// (#announcer in index.html) for everything (entries made on another phone, a conflict,
// the end of a match, the board's bumps and links, the connection, toasts).
//
// Each piece of news is said once: a text said in the last few seconds is not said
// again, and callers announce changes they detect (a new event, a new bump), never a
// redraw. Texts that arrive together are joined into one message, so none is cut off.

const REPEAT_MS = 5000;
const recent = new Map();   // text -> when it was last said
let queued = [];
let timer = null;

export function announce(text) {
  if (!text) return;
  const now = Date.now();
  for (const [t, at] of recent) if (now - at > REPEAT_MS) recent.delete(t);
  if (recent.has(text) || queued.includes(text)) return;
  recent.set(text, now);
  queued.push(text);
  clearTimeout(timer);
  timer = setTimeout(flush, 80);
}

function flush() {
  const el = document.getElementById("announcer");
  const text = queued.join(". ").replace(/\.\./g, ".");
  queued = [];
  if (!el) return;
  // Emptied first, so a message that happens to match the last one is still read.
  el.textContent = "";
  setTimeout(() => { el.textContent = text; }, 30);
}

// The client ids of this phone's own writes: their events are "yours", not news from
// another phone.
const own = new Set();
export function noteOwnWrite(clientId) { if (clientId) own.add(clientId); }
export function isOwnWrite(clientId) { return !!clientId && own.has(clientId); }
