// The analysis board's live analysis panel (issue 27): the /ws/analysis websocket asked about the
// position on the board, its best lines streamed (rank, sente's score, depth, nodes, the line in
// the chosen notation).  The panel follows the board: each new position is a new request (the
// server replaces the running search).  A screen reader hears the start, the stop and the best
// move when stopped, never each update (the lines are aria-live="off").

import { t } from "./i18n.js";
import { moveText, moveTextLang } from "./notation.js";
import { errorText, fill, h } from "./util.js";

/** Sente's evaluation as ShogiHome shows it: +120, -45, +Mate 5 (sente mates), -Mate 3. */
export function liveScore(line) {
  if (typeof line.score_mate === "number") {
    return `${line.score_mate < 0 ? "-" : "+"}${t("ui.live.mate", { n: Math.abs(line.score_mate) })}`;
  }
  const cp = typeof line.score_cp === "number" ? line.score_cp : 0;
  return `${cp > 0 ? "+" : ""}${cp}`;
}

function step(forms) {
  return { usi: forms.usi, label: forms.japanese, forms };
}

/**
 * The panel in *host*.  options: {usiEngine: the server's USI engine's name or null,
 * announce(text): say it in the page's live region, onChange(): the lines changed (for the arrow)}.
 */
export function createLivePanel(host, options) {
  let on = false;
  let socket = null;
  let pending = null; // a message waiting for the socket to open
  let nextId = 1;
  let currentId = 0;
  let status = null; // the last answer's status
  let code = null;
  let engineName = "";
  let lines = [];
  let position = null; // {sfen, moves}

  const title = h("h2", { class: "card-title", id: "live-title" });
  const toggleButton = h("button", { class: "btn primary", type: "button", id: "live-toggle", onclick: () => toggle() });
  const linesSelect = h("select", { id: "live-lines" },
    [1, 2, 3, 4, 5].map((n) => h("option", { value: n, text: String(n), selected: n === 3 })));
  const linesLabel = h("label", { for: "live-lines" });
  const engineSelect = h("select", { id: "live-engine" });
  const engineLabel = h("label", { for: "live-engine" });
  const engineRow = h("span", { class: "row", hidden: !options.usiEngine }, engineLabel, engineSelect);
  const statusLine = h("p", { class: "muted small", id: "live-status" });
  const continueButton = h("button", { class: "btn small", type: "button", id: "live-continue", hidden: true,
    onclick: () => start(false) });
  const list = h("ol", { class: "live-lines", id: "live-lines-list", "aria-live": "off" });
  const panel = h("section", { class: "card live-panel", id: "live-panel", role: "region", "aria-labelledby": "live-title" },
    title,
    h("div", { class: "row wrap" }, toggleButton, h("span", { class: "row" }, linesLabel, linesSelect), engineRow),
    statusLine, continueButton, list);
  fill(host, panel);

  linesSelect.addEventListener("change", () => { if (on) send(); });
  engineSelect.addEventListener("change", () => { if (on) send(); });

  function connect() {
    if (socket && socket.readyState <= 1) return socket;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/ws/analysis`);
    socket.addEventListener("open", () => {
      if (pending) socket.send(pending);
      pending = null;
    });
    socket.addEventListener("message", (event) => receive(event.data));
    socket.addEventListener("close", () => {
      socket = null;
      if (on) {
        on = false;
        render();
      }
    });
    return socket;
  }

  function transmit(message) {
    const text = JSON.stringify(message);
    const ws = connect();
    if (ws.readyState === 1) ws.send(text);
    else pending = text;
  }

  function send() {
    if (!position) return;
    currentId = nextId++;
    status = "running";
    code = null;
    lines = [];
    transmit({ type: "analyse", id: currentId, sfen: position.sfen, moves: position.moves,
      lines: Number(linesSelect.value) || 3, engine: engineSelect.value || "builtin" });
    render();
    options.onChange();
  }

  function receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (error) {
      return;
    }
    if (message.type === "error") {
      status = "failed";
      code = message.code;
      on = false;
    } else if (message.type === "live" && message.id === currentId) {
      status = message.status;
      code = message.code || null;
      engineName = message.engine || engineName;
      if (Array.isArray(message.lines) && message.lines.length) lines = message.lines;
      if (status === "failed" || status === "done") on = false; // its time is up: Continue asks again
    } else {
      return;
    }
    render();
    options.onChange();
  }

  function start(announce = true) {
    on = true;
    send();
    if (announce) options.announce(t("ui.live.started"));
  }

  function stop() {
    if (!on) return;
    on = false;
    if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: "stop" }));
    pending = null;
    if (status === "running") status = "stopped";
    render();
    const best = bestMove();
    options.announce(best ? t("ui.live.stopped_best", { move: moveText(step(best.forms)) }) : t("ui.live.stopped"));
  }

  function toggle() {
    if (on) stop();
    else start();
  }

  /** The engine's best move for the position shown: {usi, forms}, or null. */
  function bestMove() {
    const first = lines[0];
    if (!first || !first.pv || !first.pv.length || !first.forms || !first.forms.length) return null;
    return { usi: first.pv[0], forms: first.forms[0] };
  }

  function statusText() {
    if (status === "failed") return code === "busy" ? t("ui.live.busy") : t("ui.live.failed", { reason: errorText(code || "engine_error", "") });
    if (status === "done") return t("ui.live.done");
    if (on) return t("ui.live.running", { engine: engineName || "…" });
    if (status === "stopped") return t("ui.live.stopped");
    return t("ui.live.idle");
  }

  function render() {
    title.textContent = t("ui.live.title");
    toggleButton.textContent = on ? t("ui.live.stop") : t("ui.live.start");
    toggleButton.setAttribute("aria-pressed", on ? "true" : "false");
    linesLabel.textContent = t("ui.live.lines");
    engineLabel.textContent = t("ui.live.engine");
    const chosen = engineSelect.value || "builtin";
    fill(engineSelect,
      h("option", { value: "builtin", text: t("ui.live.engine_builtin"), selected: chosen === "builtin" }),
      options.usiEngine ? h("option", { value: "usi", text: options.usiEngine, selected: chosen === "usi" }) : null);
    statusLine.textContent = statusText();
    panel.dataset.status = on ? "running" : status || "idle";
    continueButton.textContent = t("ui.live.continue");
    continueButton.hidden = status !== "done";
    fill(list, lines.map((line, index) => h("li", { class: "live-line", dataset: { rank: line.multipv || index + 1 } },
      h("span", { class: "live-rank", text: String(line.multipv || index + 1) }),
      h("strong", { class: "live-score", text: liveScore(line) }),
      h("span", { class: "live-depth muted", text: t("ui.live.depth", { n: line.depth || 0 }) }),
      h("span", { class: "live-nodes muted", text: t("ui.live.nodes", { n: (line.nodes || 0).toLocaleString() }) }),
      h("span", { class: "live-pv", lang: moveTextLang(), text: (line.forms || []).map((forms) => moveText(step(forms))).join(" ") }))));
  }

  render();
  window.addEventListener("pagehide", () => {
    on = false;
    if (socket) {
      if (socket.readyState === 1) socket.send(JSON.stringify({ type: "stop" }));
      socket.close();
    }
  });

  return {
    /** The position on the board: the start SFEN and the moves to it; a running search follows it. */
    setPosition(sfen, moves) {
      const same = position && position.sfen === sfen && position.moves.join(" ") === moves.join(" ");
      position = { sfen, moves };
      if (same) return;
      lines = [];
      if (on) send();
      else {
        status = null;
        render();
      }
    },
    toggle,
    stop,
    bestMove,
    render,
    get running() { return on; },
  };
}
