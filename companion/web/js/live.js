// The live channel: WS /api/v1/live?after=N. Keeps the last sequence number seen, so
// a reconnect asks for exactly what was missed. Retries with back-off (0.5 s doubling
// to 8 s) and reports "online", "reconnecting" or "offline".

export class Live {
  constructor({ onMessage, onState }) {
    this.onMessage = onMessage;
    this.onState = onState;
    const stored = Number(localStorage.getItem("gingo.seq") || 0);
    this.seq = Number.isSafeInteger(stored) && stored >= 0 ? stored : 0;
    this.failures = 0;
    this.ws = null;
    this.timer = null;
    this.state = "offline";
    window.addEventListener("online", () => this.reconnectNow());
    window.addEventListener("offline", () => this.setState("offline"));
  }

  setState(s) {
    if (s !== this.state) { this.state = s; this.onState(s); }
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/api/v1/live?after=${this.seq}`;
  }

  start() { this.connect(); }

  reconnectNow() {
    clearTimeout(this.timer);
    this.failures = 0;
    if (!this.ws) this.connect();
  }

  connect() {
    clearTimeout(this.timer);
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.retry(); return; }
    this.ws = ws;
    ws.onopen = () => { this.failures = 0; this.setState("online"); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      const seq = typeof msg.seq === "number" ? msg.seq
        : (msg.event && typeof msg.event.seq === "number" ? msg.event.seq : null);
      if (msg.type === "snapshot" && typeof msg.seq === "number" && msg.seq < this.seq) {
        // the service's log is shorter than what this phone saw: a new data folder,
        // so count from its snapshot (or a reconnect would skip its new events)
        this.seq = msg.seq;
        localStorage.setItem("gingo.seq", String(msg.seq));
      }
      if (seq !== null && seq > this.seq) {
        this.seq = seq;
        localStorage.setItem("gingo.seq", String(seq));
      }
      this.onMessage(msg);
    };
    ws.onclose = () => { if (this.ws === ws) { this.ws = null; this.retry(); } };
    ws.onerror = () => { try { ws.close(); } catch { /* closing anyway */ } };
  }

  retry() {
    this.failures++;
    this.setState(navigator.onLine === false || this.failures > 6 ? "offline" : "reconnecting");
    const delay = Math.min(8000, 500 * 2 ** Math.min(this.failures - 1, 4));
    this.timer = setTimeout(() => this.connect(), delay);
  }
}
