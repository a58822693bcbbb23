// The page shell kept by the browser: a reload while the companion is down still opens the
// page, which then says it is offline and reconnects by itself. The companion's answers
// (/api/...) are never kept: scores always come from the companion.
//
// Files come from the network first (so a new version shows at once) and from this cache
// only when the companion does not answer. The shell is index.html, style.css, icon.svg,
// app.js and every module app.js imports (found by reading the imports, so a new module
// is kept without a list to update).

const CACHE = "gingo-shell-v1";
const ROOT = new URL("./", self.location).pathname;

async function modulesOf(path, seen) {
  if (seen.has(path)) return;
  seen.add(path);
  let text;
  try {
    const res = await fetch(path, { cache: "no-store" });
    if (!res.ok) return;
    text = await res.text();
  } catch { return; }
  const base = new URL(path, self.location);
  for (const m of text.matchAll(/(?:import|export)\s[^;]*?from\s*["'](\.[^"']+)["']|import\s*\(\s*["'](\.[^"']+)["']\s*\)/g)) {
    await modulesOf(new URL(m[1] || m[2], base).pathname, seen);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const seen = new Set();
    await modulesOf(ROOT + "app.js", seen);
    const cache = await caches.open(CACHE);
    await cache.addAll([ROOT, ROOT + "style.css", ROOT + "icon.svg", ...seen]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

function isShell(url) {
  return url.origin === self.location.origin && !url.pathname.startsWith(ROOT + "api/")
    && !url.pathname.endsWith("/openapi.json");
}

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (!isShell(url)) return;
  const page = req.mode === "navigate";
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const res = await fetch(req);
      if (res.ok) cache.put(page ? ROOT : url.pathname, res.clone());
      return res;
    } catch (err) {
      // the companion is down: the kept copy (a page opened as /?code=... or #/game/...
      // is the same page)
      const kept = await cache.match(page ? ROOT : url.pathname, { ignoreSearch: true });
      if (kept) return kept;
      throw err;
    }
  })());
});
