// The analysis page (/games/{id}/analysis, or /records/analysis/{key} for a record sent from the
// record viewer): a finished game reviewed with the server's analysis.  It asks for the analysis
// (POST), follows its progress by asking again every second (GET: works whichever web process runs
// it), can cancel it (DELETE), and once it is done shows the evaluation graph, the moves with their
// labels, the board with the engine's best move as an arrow and its line, the accuracy of each
// side, the key moments and the missed mates.  The browser knows no rules: positions come from
// the analysis, move texts from the server (the game's or record's moves, and each position's
// best line, in every notation: `best_line`).

import { createBoard } from "../board.js";
import { currentLanguage, onLanguageChange, t } from "../i18n.js";
import { icon } from "../icons.js";
import { moveText, moveTextLang, onNotationChange } from "../notation.js";
import { api, errorText, fill, h, postJson, sideName, toast } from "../util.js";

const POLL_MS = 1000;
const SVG_NS = "http://www.w3.org/2000/svg";
const GRAPH_W = 600;
const GRAPH_H = 160;
const PAD = 8;

function svg(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.append(node);
  return node;
}

/** The board's arrow for a USI move: [from, to], a piece letter as origin for a drop. */
function arrowOf(usi) {
  if (!usi || usi.length < 4) return null;
  return usi[1] === "*" ? [usi[0], usi.slice(2, 4)] : [usi.slice(0, 2), usi.slice(2, 4)];
}

/** A score from sente's side ({cp} or {mate, winning}) in words: +120, or who mates. */
export function scoreText(score) {
  if (!score) return "";
  if (typeof score.cp === "number") return `${score.cp > 0 ? "+" : ""}${score.cp}`;
  const side = score.winning ? "black" : "white";
  if (typeof score.mate === "number") return t(`ui.analysis.mate_${side}`, { n: Math.abs(score.mate) });
  return t(`ui.analysis.mate_${side}_unknown`);
}

function joinWords(parts) {
  return parts.filter(Boolean).reduce((a, b) => t("ui.analysis.join", { a, b }));
}

/** A best line's step ({japanese, western, kitao, csa, usi}) as moveText reads a move. */
function lineStep(forms) {
  return { usi: forms.usi, label: forms.japanese, forms };
}

export async function mount(root) {
  const gameId = document.body.dataset.gameId;
  const recordKey = document.body.dataset.recordKey; // a record's analysis, not a game's
  const analysisUrl = recordKey ? `/api/records/analysis/${encodeURIComponent(recordKey)}`
    : `/api/games/${encodeURIComponent(gameId)}/analysis`;
  let game = null; // GET /api/games/{id}: {game, moves, position, outcome}; a record: its moves and end
  let record = null; // a record's start SFEN and moves, to ask for its analysis again
  let result = null; // the analysis, once done
  let status = null; // the last answer about the analysis
  let ply = 0;
  let pollTimer = null;

  const title = h("h1", { class: "page-title" });
  const statusCard = h("div", { class: "card status-card", id: "analysis-status" });
  const boardHost = h("div", { class: "board-host", id: "board" });
  const nav = h("div", { class: "step-buttons" });
  const info = h("div", { class: "card analysis-info", id: "analysis-info" });
  const graphCard = h("div", { class: "card graph-card", hidden: true });
  const list = h("ol", { class: "move-list record-moves analysis-moves", id: "analysis-moves" });
  const summary = h("div", { class: "card analysis-summary", hidden: true });
  const live = h("p", { class: "visually-hidden", id: "analysis-live", "aria-live": "polite", role: "status" });
  const movesTitle = h("h2", { class: "card-title" });
  const view = h("div", { class: "viewer-layout analysis-layout", id: "analysis-view" },
    h("section", { class: "board-column" }, boardHost, nav, info),
    h("aside", { class: "side-column" }, statusCard, graphCard,
      h("div", { class: "card moves-card" }, movesTitle, list), summary));
  fill(root, title, view, live);

  const board = createBoard(boardHost, { interactive: false, language: currentLanguage() });

  // -- what is shown ---------------------------------------------------------------------------
  const lastPly = () => (game ? game.moves.length : 0);
  const position = (i) => (result && result.positions[i]) || null;
  const moveAt = (i) => (game && i > 0 ? game.moves[i - 1] : null);
  const handicap = () => !!(game && game.game && game.game.handicap);

  function labelText(entry) {
    return entry && entry.label ? t(`ui.analysis.label.${entry.label}`) : "";
  }

  function plyText(i) {
    const move = moveAt(i);
    return move ? t("ui.analysis.moment", { ply: i, move: moveText(move) }) : t("ui.record.start");
  }

  function go(target) {
    const next = Math.max(0, Math.min(lastPly(), target));
    if (!result) return;
    ply = next;
    renderPosition();
    say();
  }

  function say() {
    const entry = position(ply);
    const move = moveAt(ply);
    const text = joinWords([
      move ? t("ui.analysis.announce_ply", { n: ply }) : t("ui.record.start"),
      move ? moveText(move) : "",
      labelText(entry),
      entry && entry.missed_mate ? t("ui.analysis.missed_mate") : "",
      entry ? scoreText(entry.score) : "",
    ]);
    live.textContent = text;
    const graph = graphCard.querySelector("svg");
    if (graph) {
      graph.setAttribute("aria-valuenow", String(ply));
      graph.setAttribute("aria-valuetext", text);
    }
  }

  function renderPosition() {
    view.dataset.ply = String(ply);
    const entry = position(ply);
    const sfen = (entry && entry.sfen) || (game && game.position && ply === lastPly() ? game.position.sfen : null);
    if (sfen) {
      const best = entry ? arrowOf(entry.best_move) : null;
      board.setPosition({ sfen, lastMove: moveAt(ply) ? moveAt(ply).usi : null, arrows: best ? [best] : [] });
    }
    for (const item of list.querySelectorAll("li[data-ply]")) {
      const current = Number(item.dataset.ply) === ply;
      item.classList.toggle("current", current);
      if (current) item.setAttribute("aria-current", "true");
      else item.removeAttribute("aria-current");
    }
    const active = list.querySelector("li.current");
    if (active) {
      const top = active.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 30) list.scrollTop = top - list.clientHeight / 2;
    }
    renderNav();
    renderInfo();
    markGraph();
  }

  function renderNav() {
    const disabled = !result;
    const button = (id, iconName, key, target, off) => h("button", {
      class: "btn step", id, type: "button", title: t(key), "aria-label": t(key), disabled: disabled || off,
      onclick: () => go(target),
    }, icon(iconName));
    fill(nav,
      button("first-button", "first", "ui.record.first", 0, ply === 0),
      button("prev-button", "prev", "ui.record.prev", ply - 1, ply === 0),
      h("span", { class: "step-count", id: "step-count", text: t("ui.record.ply", { n: ply, total: lastPly() }) }),
      button("next-button", "next", "ui.record.next", ply + 1, ply >= lastPly()),
      button("last-button", "last", "ui.record.last", lastPly(), ply >= lastPly()),
      h("button", { class: "btn ghost step", id: "flip-button", type: "button", title: t("ui.game.flip"),
        "aria-label": t("ui.game.flip"), onclick: () => board.setFlipped(!board.flipped) }, icon("flip")));
  }

  function renderInfo() {
    const entry = position(ply);
    info.hidden = !entry;
    if (!entry) return;
    const rate = typeof entry.win_rate === "number" ? Math.round(entry.win_rate * 100) : null;
    const steps = Array.isArray(entry.best_line) && entry.best_line.length ? entry.best_line.map(lineStep) : null;
    const usiLine = entry.pv && entry.pv.length ? entry.pv : entry.best_move ? [entry.best_move] : [];
    const bestText = steps && steps.length ? moveText(steps[0]) : entry.best_move || "";
    const lineText = steps ? steps.map((step) => moveText(step)).join(" ") : usiLine.join(" ");
    fill(info,
      h("p", { class: "analysis-eval" },
        h("strong", { text: t("ui.analysis.score", { score: scoreText(entry.score) }) }),
        rate === null ? null : h("span", { class: "muted", text: t("ui.analysis.win_rate", { rate }) }),
        labelText(entry) ? h("span", { class: `label-badge label-${entry.label}`, text: labelText(entry) }) : null,
        entry.missed_mate ? h("span", { class: "label-badge label-blunder", text: t("ui.analysis.missed_mate") }) : null),
      bestText ? h("p", { class: "best-move", id: "best-move", lang: steps ? moveTextLang() : "en",
        text: t("ui.analysis.best_move", { move: bestText }) }) : null,
      lineText ? h("p", { class: "best-line muted", id: "best-line", lang: steps ? moveTextLang() : "en",
        text: t("ui.analysis.best_line", { line: lineText }) }) : null);
  }

  function renderList() {
    movesTitle.textContent = t("ui.game.moves");
    const items = [h("li", { class: "start-entry", dataset: { ply: 0 }, onclick: () => go(0) },
      h("span", { class: "ply" }), h("span", { class: "label", text: t("ui.record.start") }))];
    (game ? game.moves : []).forEach((move, index) => {
      const entry = position(index + 1);
      items.push(h("li", { dataset: { ply: index + 1, label: entry && entry.label ? entry.label : null }, onclick: () => go(index + 1) },
        h("span", { class: "ply", text: String(index + 1) }),
        h("span", { class: "label", lang: moveTextLang(), text: moveText(move) }),
        labelText(entry) ? h("span", { class: `label-badge label-${entry.label}`, text: labelText(entry) }) : null,
        entry && entry.missed_mate ? h("span", { class: "label-badge label-blunder", text: t("ui.analysis.missed_mate") }) : null));
    });
    fill(list, ...items);
  }

  // -- the graph ---------------------------------------------------------------------------------
  const xOf = (i) => PAD + (i * (GRAPH_W - 2 * PAD)) / Math.max(1, lastPly());
  const yOf = (rate) => PAD + (1 - rate) * (GRAPH_H - 2 * PAD);

  function renderGraph() {
    graphCard.hidden = !result;
    if (!result) return;
    const graph = svg("svg", {
      viewBox: `0 0 ${GRAPH_W} ${GRAPH_H}`, class: "eval-graph", id: "analysis-graph", tabindex: 0, role: "slider",
      "aria-label": t("ui.analysis.graph_label"), "aria-valuemin": 0, "aria-valuemax": lastPly(), "aria-valuenow": ply,
    });
    svg("rect", { x: 0, y: 0, width: GRAPH_W, height: GRAPH_H, class: "graph-bg" }, graph);
    svg("line", { x1: PAD, x2: GRAPH_W - PAD, y1: yOf(0.5), y2: yOf(0.5), class: "graph-mid" }, graph);
    const points = [];
    let previous = 0.5;
    for (let i = 0; i <= lastPly(); i++) {
      const entry = position(i);
      const rate = entry && typeof entry.win_rate === "number" ? entry.win_rate : previous;
      previous = rate;
      points.push([xOf(i), yOf(rate)]);
    }
    const line = points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
    svg("polygon", { points: `${xOf(0)},${yOf(0)} ${line} ${xOf(lastPly())},${yOf(0)}`, class: "graph-area" }, graph);
    svg("polyline", { points: line, class: "graph-line" }, graph);
    svg("line", { y1: PAD, y2: GRAPH_H - PAD, class: "graph-cursor" }, graph);
    points.forEach(([x, y], i) => {
      const entry = position(i);
      if (entry && entry.label) {
        svg("circle", { cx: x, cy: y, r: 5, class: `graph-dot label-${entry.label}`, "data-ply": i }, graph);
      }
    });
    svg("circle", { r: 4, class: "graph-current" }, graph);
    graph.addEventListener("click", (event) => {
      const box = graph.getBoundingClientRect();
      if (!box.width) return;
      const x = ((event.clientX - box.left) * GRAPH_W) / box.width;
      go(Math.round(((x - PAD) * Math.max(1, lastPly())) / (GRAPH_W - 2 * PAD)));
      graph.focus();
    });
    fill(graphCard, h("h2", { class: "card-title", text: t("ui.analysis.graph") }), graph);
    markGraph();
  }

  function markGraph() {
    const graph = graphCard.querySelector("svg");
    if (!graph || !result) return;
    const entry = position(ply);
    const x = xOf(ply);
    const cursor = graph.querySelector(".graph-cursor");
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
    const dot = graph.querySelector(".graph-current");
    dot.setAttribute("cx", x);
    dot.setAttribute("cy", yOf(entry && typeof entry.win_rate === "number" ? entry.win_rate : 0.5));
  }

  // -- accuracy, key moments, missed mates, engine -----------------------------------------------
  function jumpButtons(plies) {
    return h("div", { class: "row wrap" }, plies.map((i) => h("button", {
      type: "button", class: "chip", lang: moveTextLang(), dataset: { ply: i }, text: plyText(i), onclick: () => go(i),
    })));
  }

  function renderSummary() {
    summary.hidden = !result;
    if (!result) return;
    const players = result.players || {};
    const accuracy = (color, side) => {
      const value = players[side] && players[side].accuracy;
      return h("li", { dataset: { color },
        text: t("ui.analysis.accuracy_of", { side: sideName(color, handicap()), accuracy: value === null || value === undefined ? "—" : value }) });
    };
    const moments = (result.key_moments || []).filter((i) => i > 0 && i <= lastPly());
    const missed = result.positions.filter((entry) => entry.missed_mate).map((entry) => entry.ply);
    fill(summary,
      h("h2", { class: "card-title", text: t("ui.analysis.accuracy") }),
      h("ul", { class: "accuracy-list", id: "analysis-accuracy" }, accuracy("b", "black"), accuracy("w", "white")),
      h("h2", { class: "card-title", text: t("ui.analysis.key_moments") }),
      moments.length ? h("div", { id: "key-moments" }, jumpButtons(moments))
        : h("p", { class: "muted", text: t("ui.analysis.key_moments_none") }),
      h("h2", { class: "card-title", text: t("ui.analysis.missed_mates") }),
      missed.length ? h("div", { id: "missed-mates" }, jumpButtons(missed))
        : h("p", { class: "muted", text: t("ui.analysis.missed_mates_none") }),
      h("p", { class: "muted small", id: "analysis-engine",
        text: t("ui.analysis.engine", { engine: result.engine || "—", limit: result.limit || "—" }) }));
  }

  // -- the request, its progress, cancelling -----------------------------------------------------
  function renderStatus() {
    const state = status ? status.status : null;
    statusCard.hidden = state === "done"; // nothing to ask for: the result is on the page
    const parts = [];
    if (state === "done") {
      fill(statusCard);
      return;
    }
    if (!state) {
      parts.push(h("p", { class: "muted", text: t("ui.status.loading") }));
    } else if (state === "queued" || state === "running") {
      const text = state === "queued" && !status.done ? t("ui.analysis.queued")
        : t("ui.analysis.progress", { done: status.done, total: status.total });
      parts.push(h("p", { class: "status-line", id: "analysis-progress", text }),
        h("progress", { max: status.total || 1, value: status.done || 0, "aria-hidden": "true" }),
        h("div", { class: "row wrap" },
          h("button", { class: "btn", type: "button", id: "cancel-analysis", text: t("ui.analysis.cancel"), onclick: cancel })));
    } else {
      if (state === "cancelled") parts.push(h("p", { class: "muted", text: t("ui.analysis.cancelled") }));
      if (state === "failed") {
        parts.push(h("p", { class: "muted", text: t("ui.analysis.failed", { reason: errorText(status.code || "engine_error", "") }) }));
      }
      parts.push(h("p", { text: t("ui.analysis.request_text") }),
        h("div", { class: "row wrap" },
          h("button", { class: "btn primary", type: "button", id: "request-analysis", text: t("ui.analysis.request"), onclick: request })));
    }
    fill(statusCard, ...parts);
  }

  function show(answer) {
    status = answer;
    clearTimeout(pollTimer);
    if (answer.status === "done" && answer.result) {
      const fresh = !result;
      result = answer.result;
      if (fresh) ply = lastPly();
      renderAll();
      return;
    }
    renderStatus();
    if (answer.status === "queued" || answer.status === "running") pollTimer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    try {
      show(await api(analysisUrl));
    } catch (error) {
      pollTimer = setTimeout(poll, POLL_MS); // the server is busy or restarting: ask again
    }
  }

  async function request() {
    try {
      show(await (record ? postJson("/api/records/analysis", record) : api(analysisUrl, { method: "POST" })));
    } catch (error) {
      toast(errorText(error.code, error.message), "error");
    }
  }

  async function cancel() {
    try {
      const answer = await api(analysisUrl, { method: "DELETE" });
      show(answer.status === "none" ? { status: "cancelled" } : answer);
    } catch (error) {
      toast(errorText(error.code, error.message), "error");
    }
  }

  function renderAll() {
    fill(title, t("ui.analysis.title"), " ",
      recordKey ? h("a", { class: "btn small", href: "/record", text: t("ui.analysis.back_record") })
        : h("a", { class: "btn small", href: `/game/${encodeURIComponent(gameId)}`, text: t("ui.analysis.back") }));
    renderStatus();
    renderList();
    renderGraph();
    renderSummary();
    renderPosition();
  }

  document.addEventListener("keydown", (event) => {
    if (!result || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (/input|textarea|select/i.test(event.target.tagName) || event.target.isContentEditable) return;
    const targets = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: lastPly() };
    if (!(event.key in targets)) return;
    event.preventDefault();
    go(targets[event.key]);
  });
  onNotationChange(() => renderAll());
  onLanguageChange((language) => {
    board.setLanguage(language);
    renderAll();
  });

  let first = null; // a record's first answer: its moves and where its analysis is
  try {
    if (recordKey) {
      first = await api(analysisUrl);
      record = { sfen: first.start_sfen, moves: first.moves.map((move) => move.usi) };
      game = { moves: first.moves, position: first.position, game: null };
    } else {
      game = await api(`/api/games/${encodeURIComponent(gameId)}`);
    }
  } catch (error) {
    toast(errorText(error.code, error.message), "error");
    return;
  }
  ply = lastPly();
  renderAll();
  if (first) show(first);
  else await poll();
}
