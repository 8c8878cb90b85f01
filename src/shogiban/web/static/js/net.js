// The game websocket: connects, reconnects with back-off, and delivers parsed messages.
//
//   const socket = new GameSocket(gameId, {
//     onMessage(message) {},        // every server message (state, move, hint, error, ...)
//     onStatus(status) {},          // "connecting" | "open" | "closed" | "gone" (unknown game)
//   });
//   socket.send({type: "move", usi: "7g7f", ply: 0});
//   socket.close();

export class GameSocket {
  constructor(gameId, { onMessage, onStatus } = {}) {
    this.gameId = gameId;
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.retry = 0;
    this.stopped = false;
    this.ws = null;
    this.pending = [];
    this.pingTimer = null;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/games/${encodeURIComponent(this.gameId)}`;
  }

  connect() {
    if (this.stopped) return;
    this.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.onStatus("open");
      for (const message of this.pending.splice(0)) ws.send(JSON.stringify(message));
      clearInterval(this.pingTimer);
      // Keep proxies from closing an idle connection during a long think.
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        console.warn("unreadable message", event.data);
        return;
      }
      if (message.type === "error" && message.code === "unknown_game") {
        this.stopped = true;
        this.gone = true;
        this.onStatus("gone");
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      if (this.stopped) {
        if (!this.gone) this.onStatus("closed");
        return;
      }
      this.onStatus("connecting");
      const delay = Math.min(8000, 400 * 2 ** this.retry) * (0.75 + Math.random() * 0.5);
      this.retry += 1;
      setTimeout(() => this.connect(), delay);
    });
  }

  /** Send a message now, or as soon as the connection is open. */
  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    if (message.type !== "ping") this.pending = [message];
    return false;
  }

  /** Whether the connection is open. */
  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  close() {
    this.stopped = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}
