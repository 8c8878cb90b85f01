// The analysis page (/games/{id}/analysis, or /records/analysis/{key} for a record sent from the
// record viewer): a finished game reviewed with the server's analysis.  It asks for the analysis
// (POST), follows its progress by asking again every second (GET: works whichever web process runs
// it), can cancel it (DELETE), and once it is done shows the evaluation graph, the moves with their
// labels, the board with the engine's best move as an arrow and its line, the accuracy of each
// side, the key moments and the missed mates.  The browser knows no rules: positions come from
// the analysis, move texts from the server (the game's or record's moves, and each position's
// best line, in every notation: `best_line`).
//
// The page is also an analysis board (issue 27): any legal move played on the board makes a
// variation in an explored record kept in the browser (../explore.js: branches, comments, delete,
// promote to the main line, undo; localStorage per game or record, so a reload keeps it), the legal
// moves of each position coming from POST /api/positions/moves; and a live analysis panel
// (../live.js, the /ws/analysis websocket; key L) follows the position shown, key B showing its
// best move as an arrow.
//
// "Learn from your mistakes" (../mistakes.js): each mistake and blunder of the viewer's side (the
// game's own side when the page knows it, else a side chosen) becomes an exercise on this board,
// judged by POST /api/practice/judge; while exercises show, the review's panels are hidden (they
// would tell the answer) and the board's moves go to the exercise, not the explored record.

import { createBoard } from "../board.js";
import { currentLanguage, onLanguageChange, t } from "../i18n.js";
import { icon } from "../icons.js";
import { moveText, moveTextLang, onNotationChange } from "../notation.js";
import { api, errorText, fill, h, postJson, sideName, toast } from "../util.js";
import { Exploration, gamePath, isMainLine, resolve, treeBody, usiOf } from "../explore.js";
import { createLivePanel } from "../live.js";
import { createMistakes, exercisesOf } from "../mistakes.js";
import { GameSocket } from "../net.js";

const POLL_MS = 1000;
const FALLBACK_POLL_MS = 5000; // while the websocket brings the progress
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
  let ply = 0; // the depth of the move shown (the game's ply on the game's moves)
  let pollTimer = null;
  let socketOpen = false; // the game's websocket is connected: progress comes by itself
  let tree = null; // the explored record (Exploration)
  let startSfen = null;
  let livePanel = null;
  let liveArrow = false; // B: the live analysis' best move as the arrow
  let infoToken = 0;
  let mistakes = null; // the exercises (createMistakes), once the page knows the game
  let review = null; // where the review was ({path, flipped}) while exercises show
  let interactive = true; // whether the board takes moves

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
  const liveHost = h("div", { id: "live-host" });
  const mistakesHost = h("section", { class: "card mistakes-panel", id: "mistakes", role: "region",
    "aria-labelledby": "mistakes-title", hidden: true });
  const deleteButton = h("button", { class: "btn small", type: "button", id: "explore-delete", onclick: () => edit(() => tree.remove()) });
  const promoteButton = h("button", { class: "btn small", type: "button", id: "explore-promote", onclick: () => edit(() => tree.promote()) });
  const undoButton = h("button", { class: "btn small", type: "button", id: "explore-undo", onclick: () => edit(() => tree.undo()) });
  const downloadFormat = h("select", { id: "explore-format" },
    ["kif", "ki2", "csa", "jkf"].map((format) => h("option", { value: format, text: format.toUpperCase() })));
  const downloadButton = h("button", { class: "btn small", type: "button", id: "explore-download", onclick: () => download() });
  const commentLabel = h("label", { for: "explore-comment" });
  const commentBox = h("textarea", { id: "explore-comment", rows: 2, maxlength: 2000, class: "explore-comment" });
  const exploreHelp = h("p", { class: "muted small" });
  const tools = h("div", { class: "card explore-tools", id: "explore-tools" },
    h("div", { class: "row wrap" }, deleteButton, promoteButton, undoButton, downloadFormat, downloadButton),
    commentLabel, commentBox, exploreHelp);
  const view = h("div", { class: "viewer-layout analysis-layout", id: "analysis-view" },
    h("section", { class: "board-column" }, boardHost, nav, tools, info),
    h("aside", { class: "side-column" }, mistakesHost, liveHost, statusCard, graphCard,
      h("div", { class: "card moves-card" }, movesTitle, list), summary));
  fill(root, title, view, live);

  const board = createBoard(boardHost, { interactive: true, language: currentLanguage(), onMove: (usi) => explore(usi) });

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

  /** The game's *target* ply (on the game's own moves). */
  function go(target) {
    if (!tree) return;
    goPath(gamePath(tree.root, Math.max(0, Math.min(lastPly(), target))));
  }

  /** The explored record's move at *path*. */
  function goPath(path) {
    if (!tree || !path) return;
    tree.go(path);
    ply = tree.path.length;
    renderPosition();
    say();
  }

  const current = () => tree.node;
  /** The analysis of a node: the game's own moves have one. */
  const entryOf = (node) => (node && Number.isInteger(node.game) ? position(node.game) : null);
  /** A node as moveText reads a move. */
  const stepOf = (node) => ({ usi: node.usi, label: node.forms ? node.forms.japanese : node.usi, forms: node.forms });

  function say() {
    const node = current();
    const entry = entryOf(node);
    const parent = tree.path.length ? resolve(tree.root, tree.path.slice(0, -1)).node : null;
    const text = joinWords([
      node.usi ? t("ui.analysis.announce_ply", { n: ply }) : t("ui.record.start"),
      node.usi ? moveText(stepOf(node)) : "",
      Number.isInteger(node.game) ? "" : t("ui.explore.variation"),
      labelText(entry),
      entry && entry.missed_mate ? t("ui.analysis.missed_mate") : "",
      entry ? scoreText(entry.score) : "",
      parent && parent.children.length > 1 ? t("ui.explore.variations", { n: parent.children.length }) : "",
    ]);
    live.textContent = text;
    const graph = graphCard.querySelector("svg");
    if (graph) {
      graph.setAttribute("aria-valuenow", String(ply));
      graph.setAttribute("aria-valuetext", text);
    }
  }

  function arrows(entry) {
    if (liveArrow && livePanel) {
      const best = livePanel.bestMove();
      if (best) return [arrowOf(best.usi)];
    }
    const best = entry ? arrowOf(entry.best_move) : null;
    return best ? [best] : [];
  }

  /** The board: the position of the move shown, its legal moves once the server has told them. */
  function showBoard() {
    const node = current();
    const entry = entryOf(node);
    const known = node.info;
    const sfen = known ? known.sfen : (entry && entry.sfen)
      || (game && game.position && node.game === lastPly() ? game.position.sfen : null);
    boardHost.dataset.legalFor = known ? tree.path.join(".") : "-"; // the moves it takes are known
    if (!sfen) return;
    const exercising = !!(mistakes && mistakes.active);
    const playable = !exercising || mistakes.canPlay();
    if (playable !== interactive) {
      interactive = playable;
      board.setInteractive(playable);
    }
    board.setPosition({
      sfen, lastMove: node.usi || null, arrows: exercising ? mistakes.arrows() : arrows(entry),
      check: known ? known.check : false,
      dests: known ? known.dests : {}, dropDests: known ? known.drop_dests : {},
    });
  }

  /** Ask the server for the legal moves of the position shown (kept on its node). */
  async function fetchInfo() {
    const node = current();
    if (node.info) return;
    const token = ++infoToken;
    try {
      const answer = await postJson("/api/positions/moves", { sfen: startSfen, moves: usiOf(tree.root, tree.path) });
      node.info = answer;
      if (token === infoToken && current() === node) showBoard();
    } catch (error) {
      toast(errorText(error.code, error.message), "error");
    }
  }

  /** A move played on the board: into the existing move, or a new variation. */
  function explore(usi) {
    const known = current().info;
    if (!known || !known.moves || !known.moves[usi]) {
      showBoard();
      return;
    }
    if (mistakes && mistakes.active) {
      if (!mistakes.tryMove(usi, known.moves[usi])) showBoard();
      return;
    }
    const changed = tree.play(usi, known.moves[usi]);
    ply = tree.path.length;
    if (changed) renderList();
    renderPosition();
    say();
  }

  /** An edit of the explored record (delete, promote, undo). */
  function edit(action) {
    if (!tree || !action()) return;
    ply = tree.path.length;
    renderList();
    renderPosition();
    say();
  }

  function renderTools() {
    const node = current();
    deleteButton.textContent = t("ui.explore.delete");
    deleteButton.disabled = !tree.path.length || Number.isInteger(node.game);
    promoteButton.textContent = t("ui.explore.promote");
    promoteButton.disabled = isMainLine(tree.path);
    undoButton.textContent = t("ui.explore.undo");
    undoButton.disabled = !tree.undoStack.length;
    downloadButton.textContent = t("ui.explore.download");
    downloadFormat.setAttribute("aria-label", t("ui.explore.format"));
    commentLabel.textContent = t("ui.explore.comment");
    if (document.activeElement !== commentBox) commentBox.value = node.comment || "";
    exploreHelp.textContent = t("ui.explore.help");
  }

  let commentEdited = false; // the comment's first change since it got focus is an undo step
  commentBox.addEventListener("focus", () => { commentEdited = false; });
  commentBox.addEventListener("input", () => {
    if (!tree) return;
    if (!commentEdited) {
      tree.checkpoint();
      commentEdited = true;
      undoButton.disabled = false;
    }
    tree.comment(commentBox.value);
    const item = list.querySelector(`li[data-path="${tree.path.join(".")}"]`);
    if (item) {
      let note = item.querySelector(".move-comment");
      if (!note) note = item.appendChild(h("span", { class: "move-comment muted" }));
      note.textContent = commentBox.value;
    }
  });

  async function download() {
    if (!tree || !startSfen) return;
    const format = downloadFormat.value;
    try {
      const response = await fetch(`/api/records/tree?format=${encodeURIComponent(format)}`, {
        method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
        // With the analysis, when there is one: written in the comments as ShogiHome (floodgate in CSA) does.
        body: JSON.stringify({ ...treeBody(tree.root, startSfen),
          ...(result ? (recordKey ? { record: recordKey } : { game: gameId }) : {}) }),
      });
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        toast(errorText(body.code || "http", body.message || ""), "error");
        return;
      }
      const url = URL.createObjectURL(await response.blob());
      const link = h("a", { href: url, download: `analysis.${format}` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (error) {
      toast(errorText("network", String(error)), "error");
    }
  }

  function renderPosition() {
    view.dataset.ply = String(ply);
    const here = tree.path.join(".");
    view.dataset.path = here;
    showBoard();
    fetchInfo();
    if (livePanel) livePanel.setPosition(startSfen, usiOf(tree.root, tree.path));
    for (const item of list.querySelectorAll("li[data-path]")) {
      const current = item.dataset.path === here;
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
    renderTools();
    renderInfo();
    markGraph();
  }

  /** The path at the end of the line through the move shown. */
  function endOfLine() {
    const path = tree.path.slice();
    let node = current();
    while (node.children.length) {
      path.push(0);
      node = node.children[0];
    }
    return path;
  }

  function renderNav() {
    const button = (id, iconName, key, target, off) => h("button", {
      class: "btn step", id, type: "button", title: t(key), "aria-label": t(key), disabled: off,
      onclick: () => goPath(target),
    }, icon(iconName));
    const atStart = !tree.path.length;
    const atEnd = !current().children.length;
    fill(nav,
      button("first-button", "first", "ui.record.first", [], atStart),
      button("prev-button", "prev", "ui.record.prev", tree.path.slice(0, -1), atStart),
      h("span", { class: "step-count", id: "step-count", text: t("ui.record.ply", { n: ply, total: lastPly() }) }),
      button("next-button", "next", "ui.record.next", [...tree.path, 0], atEnd),
      button("last-button", "last", "ui.record.last", endOfLine(), atEnd),
      h("button", { class: "btn ghost step", id: "flip-button", type: "button", title: t("ui.game.flip"),
        "aria-label": t("ui.game.flip"), onclick: () => board.setFlipped(!board.flipped) }, icon("flip")));
  }

  function renderInfo() {
    const entry = entryOf(current());
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

  /** The list's entry of the explored move *node* at *path*; the game's own moves keep their
   * ply (data-ply), the variations' first moves a branch marker. */
  function itemOf(node, path, branch) {
    const entry = entryOf(node);
    const dataset = { path: path.join(".") };
    if (Number.isInteger(node.game)) dataset.ply = node.game;
    if (entry && entry.label) dataset.label = entry.label;
    return h("li", { class: Number.isInteger(node.game) ? null : "variation-move", dataset,
      onclick: (event) => { event.stopPropagation(); goPath(path); } },
    h("span", { class: "ply", text: String(path.length) }),
    branch ? h("span", { class: "branch", "aria-hidden": "true", title: t("ui.explore.variation"), text: "↳" }) : null,
    h("span", { class: "label", lang: moveTextLang(), text: moveText(stepOf(node)) }),
    labelText(entry) ? h("span", { class: `label-badge label-${entry.label}`, text: labelText(entry) }) : null,
    entry && entry.missed_mate ? h("span", { class: "label-badge label-blunder", text: t("ui.analysis.missed_mate") }) : null,
    node.comment ? h("span", { class: "move-comment muted", text: node.comment }) : null);
  }

  /** The main line after *parent* (at *path*) into *items*, each move's alternatives nested after it. */
  function lineItems(parent, path, items) {
    let node = parent;
    let here = path;
    while (node.children.length) {
      const [main, ...others] = node.children;
      const mainPath = [...here, 0];
      items.push(itemOf(main, mainPath, false));
      if (others.length) {
        items.push(h("li", { class: "variations" }, others.map((other, k) => {
          const otherPath = [...here, k + 1];
          const sub = [itemOf(other, otherPath, true)];
          lineItems(other, otherPath, sub);
          return h("ol", { class: "move-list variation", "aria-label": t("ui.explore.variation") }, sub);
        })));
      }
      node = main;
      here = mainPath;
    }
  }

  function renderList() {
    movesTitle.textContent = t("ui.game.moves");
    if (!tree) return;
    const items = [h("li", { class: "start-entry", dataset: { ply: 0, path: "" }, onclick: () => goPath([]) },
      h("span", { class: "ply" }), h("span", { class: "label", text: t("ui.record.start") }),
      tree.root.comment ? h("span", { class: "move-comment muted", text: tree.root.comment }) : null)];
    lineItems(tree.root, [], items);
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
    const entry = entryOf(current());
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

  // How far an analysis has got: an answer that says less than the page knows is a late one (the
  // websocket's "running" can overtake the request's own "queued" answer).
  const STAGE = { none: 0, cancelled: 0, failed: 0, queued: 1, running: 2, done: 3 };

  function show(answer) {
    if (status && (STAGE[answer.status] ?? 0) > 0 && (STAGE[answer.status] ?? 0) < (STAGE[status.status] ?? 0)
        && status.status !== "done") {
      clearTimeout(pollTimer);
      pollTimer = setTimeout(poll, socketOpen ? FALLBACK_POLL_MS : POLL_MS);
      return;
    }
    status = answer;
    clearTimeout(pollTimer);
    if (answer.status === "done" && answer.result) {
      result = answer.result;
      renderAll();
      return;
    }
    renderStatus();
    // The game's websocket brings the progress live; asking now and then is the fallback (a
    // record has no websocket, and another web process may run the analysis).
    const every = socketOpen ? FALLBACK_POLL_MS : POLL_MS;
    if (answer.status === "queued" || answer.status === "running") pollTimer = setTimeout(poll, every);
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
    if (livePanel) livePanel.render();
    mistakesHost.hidden = !result || !mistakes;
    if (result && mistakes) mistakes.render();
  }

  // -- learning from one's mistakes --------------------------------------------------------------
  /** The exercises' position: the board before the exercise's mistake, from its side. */
  function enterExercise(exercise) {
    if (!review) review = { path: tree.path.slice(), flipped: board.flipped };
    view.classList.add("exercising");
    if (livePanel) livePanel.stop();
    liveArrow = false;
    tree.go(gamePath(tree.root, exercise.ply - 1));
    ply = tree.path.length;
    board.setFlipped(exercise.side === "w");
    renderPosition();
  }

  /** Back to the review where it was. */
  function leaveExercises() {
    view.classList.remove("exercising");
    if (review) {
      tree.go(review.path);
      board.setFlipped(review.flipped);
      review = null;
    }
    ply = tree.path.length;
    renderPosition();
  }

  /** B: the live analysis' best move as the arrow (again: the analysis' own). */
  function toggleBestArrow() {
    liveArrow = !liveArrow;
    showBoard();
    if (!liveArrow) return;
    const best = livePanel ? livePanel.bestMove() : null;
    live.textContent = best ? t("ui.live.best_arrow", { move: moveText({ usi: best.usi, label: best.forms.japanese, forms: best.forms }) })
      : t("ui.live.no_best");
  }

  function keyTarget(key) {
    const path = tree.path;
    if (key === "ArrowLeft") return path.length ? path.slice(0, -1) : null;
    if (key === "ArrowRight") return current().children.length ? [...path, 0] : null;
    if (key === "Home") return [];
    if (key === "End") return endOfLine();
    if ((key === "ArrowUp" || key === "ArrowDown") && path.length) {
      // Another variation at this move: the previous or next alternative.
      const parent = resolve(tree.root, path.slice(0, -1)).node;
      const index = path[path.length - 1] + (key === "ArrowUp" ? -1 : 1);
      return index >= 0 && index < parent.children.length ? [...path.slice(0, -1), index] : null;
    }
    return null;
  }

  document.addEventListener("keydown", (event) => {
    if (!tree || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (mistakes && mistakes.active) return; // the exercise's own buttons and the board
    if (/input|textarea|select/i.test(event.target.tagName) || event.target.isContentEditable) return;
    if ((event.key === "l" || event.key === "L") && livePanel) {
      event.preventDefault();
      livePanel.toggle();
      return;
    }
    if (event.key === "b" || event.key === "B") {
      event.preventDefault();
      toggleBestArrow();
      return;
    }
    const target = keyTarget(event.key);
    if (!target) return;
    event.preventDefault();
    goPath(target);
  });
  onNotationChange(() => renderAll());
  onLanguageChange((language) => {
    board.setLanguage(language);
    renderAll();
  });

  let first = null; // a record's first answer: its moves and where its analysis is
  let config = {};
  try {
    if (recordKey) {
      first = await api(analysisUrl);
      record = { sfen: first.start_sfen, moves: first.moves.map((move) => move.usi) };
      game = { moves: first.moves, position: first.position, game: null };
      startSfen = first.start_sfen;
    } else {
      game = await api(`/api/games/${encodeURIComponent(gameId)}`);
      startSfen = game.game.start_sfen;
    }
    config = await api("/api/config").catch(() => ({}));
  } catch (error) {
    toast(errorText(error.code, error.message), "error");
    return;
  }
  tree = new Exploration(`shogiban.explore.${recordKey ? `record.${recordKey}` : `game.${gameId}`}`, game.moves);
  ply = tree.path.length;
  const you = game.game ? game.you : null; // the viewer's own side in the game ("both": a local game)
  mistakes = createMistakes(mistakesHost, {
    storageKey: `shogiban.mistakes.${recordKey ? `record.${recordKey}` : `game.${gameId}`}`,
    startSfen,
    exercises: (side) => exercisesOf(result, game.moves, side),
    fixedSide: () => (you === "b" || you === "w" ? you : null),
    sideName: (color) => sideName(color, handicap()),
    enter: enterExercise,
    leave: leaveExercises,
    refresh: () => showBoard(),
    announce: (text) => { live.textContent = text; },
  });
  livePanel = createLivePanel(liveHost, {
    usiEngine: config.usi || null,
    announce: (text) => { live.textContent = text; },
    onChange: () => { if (liveArrow) showBoard(); },
  });
  renderAll();
  if (gameId && !recordKey) {
    // As a spectator of the game: its `analysis` messages are the progress and the result.
    const socket = new GameSocket(gameId, {
      onMessage: (message) => { if (message.type === "analysis") show(message); },
      onStatus: (state) => { socketOpen = state === "open"; },
    });
    window.addEventListener("pagehide", () => socket.close());
  }
  if (first) show(first);
  else await poll();
}
