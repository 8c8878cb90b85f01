// The "Puzzles" page (/puzzles, /puzzles/<id>): mate problems of 1, 3, 5 and 7 moves.
//
// The learner plays the attacker.  Each move goes to the server, which checks it with the tsume
// solver (any move that still mates in time is accepted) and answers with the defender's longest
// resistance.  Solved problems are remembered in localStorage.

import { createBoard } from "/static/js/board.js";
import { onLanguageChange, pieceName, t } from "/static/js/i18n.js";
import { el, lang, pageReady, request, startPage } from "./common.js";

const SOLVED_KEY = "shogiban.puzzles.solved";
const state = { groups: [], puzzle: null, line: [], view: null, hint: 0, busy: false, board: null };

function solvedSet() {
  try {
    const list = JSON.parse(localStorage.getItem(SOLVED_KEY) || "[]");
    return new Set(Array.isArray(list) ? list : []);
  } catch (error) {
    return new Set();
  }
}

function markSolved(id) {
  const solved = solvedSet();
  solved.add(id);
  try {
    localStorage.setItem(SOLVED_KEY, JSON.stringify([...solved]));
  } catch (error) {
    // Storage disabled: progress is only a convenience.
  }
}

function puzzleIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts[0] === "puzzles" && parts[1] ? decodeURIComponent(parts[1]) : null;
}

function allPuzzles() {
  return state.groups.flatMap((group) => group.puzzles.map((p) => ({ ...p, length: group.length })));
}

// -- the list -----------------------------------------------------------------------------

function renderNav() {
  const nav = document.getElementById("puzzle-nav");
  const solved = solvedSet();
  nav.replaceChildren(el("p", { class: "puzzle-intro", text: t("ui.puzzles.intro") }));
  for (const group of state.groups) {
    const grid = el("div", { class: "puzzle-grid" });
    for (const puzzle of group.puzzles) {
      const done = solved.has(puzzle.id);
      grid.append(el("a", {
        href: `/puzzles/${puzzle.id}`,
        class: `puzzle-button${done ? " solved" : ""}`,
        "data-puzzle": puzzle.id,
        "aria-current": state.puzzle && state.puzzle.id === puzzle.id ? "page" : null,
        title: done ? t("ui.puzzles.solved_mark") : null,
        onclick: (event) => { event.preventDefault(); openPuzzle(puzzle.id, true); },
      }, String(puzzle.number)));
    }
    nav.append(el("h2", {}, t("ui.puzzles.mate_in", { n: group.length })), grid);
  }
  const total = allPuzzles().length;
  const count = allPuzzles().filter((p) => solved.has(p.id)).length;
  nav.append(el("p", { class: "puzzle-progress", id: "puzzle-progress" }, t("ui.puzzles.progress", { solved: count, total })));
  nav.append(el("p", { class: "puzzle-source" }, t("ui.puzzles.source")));
}

// -- one problem --------------------------------------------------------------------------

function setStatus(text, kind = "") {
  const status = document.getElementById("puzzle-status");
  status.textContent = text;
  status.className = `puzzle-status ${kind}`;
  status.dataset.kind = kind;
}

function showView(view, extra = {}) {
  state.view = view;
  state.board.setPosition({
    sfen: view.sfen, lastMove: view.lastMove, check: view.check, dests: view.dests, dropDests: view.dropDests,
    ...extra,
  });
}

function movesLeft() {
  return Math.ceil((state.puzzle.length - state.line.length) / 2);
}

async function onMove(usi) {
  if (state.busy || !state.puzzle) return;
  state.busy = true;
  const puzzle = state.puzzle;
  setStatus(t("ui.puzzles.thinking"), "busy");
  let result;
  try {
    result = await request(`/api/puzzles/${puzzle.id}/move`, { line: state.line, usi, lang: lang() });
  } catch (error) {
    showView(state.view);
    setStatus(t("ui.puzzles.error", { message: error.message }), "bad");
    state.busy = false;
    return;
  }
  if (state.puzzle !== puzzle) return;
  if (!result.accepted) {
    showView(state.view);
    setStatus(result.message, "bad");
    document.getElementById("puzzle-status").dataset.code = result.code;
    state.busy = false;
    return;
  }
  state.line = result.line;
  state.hint = 0;
  if (result.solved) {
    showView(result);
    setStatus(`${t("ui.puzzles.solved")} ${result.message}`, "good");
    markSolved(puzzle.id);
    renderNav();
    document.getElementById("puzzle-next").classList.add("primary");
  } else {
    // Show the learner's move first, then the defender's answer.
    state.board.setPosition({ sfen: result.afterMove.sfen, lastMove: result.afterMove.lastMove, check: true });
    await new Promise((resolve) => setTimeout(resolve, 450));
    if (state.puzzle !== puzzle) return;
    showView(result);
    setStatus(`${result.message} ${t("ui.puzzles.reply", { move: result.replyText })} ${t("ui.puzzles.moves_left", { n: movesLeft() })}`, "good");
  }
  state.busy = false;
}

async function onHint() {
  if (!state.puzzle || state.busy) return;
  let hint;
  try {
    hint = await request(`/api/puzzles/${state.puzzle.id}/hint`, { line: state.line });
  } catch (error) {
    setStatus(t("ui.puzzles.error", { message: error.message }), "bad");
    return;
  }
  if (!hint.move) return;
  state.hint = Math.min(2, state.hint + 1);
  const drop = hint.square.endsWith("*");
  if (state.hint === 1) {
    if (drop) {
      const letter = hint.square[0];
      showView(state.view, { highlights: [] });
      setStatus(t("ui.puzzles.hint_drop", { piece: pieceName(letter) }), "hint");
    } else {
      showView(state.view, { highlights: [hint.square] });
      setStatus(t("ui.puzzles.hint_piece"), "hint");
    }
    return;
  }
  const to = hint.move.slice(2, 4);
  const from = drop ? hint.square[0] : hint.square;
  showView(state.view, { highlights: drop ? [] : [hint.square], arrows: [[from, to]] });
  setStatus(t("ui.puzzles.hint_move"), "hint");
}

async function openPuzzle(id, push = false) {
  const known = allPuzzles();
  const entry = known.find((p) => p.id === id) || known.find((p) => !solvedSet().has(p.id)) || known[0];
  if (!entry) return;
  if (push) history.pushState({ puzzle: entry.id }, "", `/puzzles/${entry.id}`);
  let data;
  try {
    data = await request(`/api/puzzles/${encodeURIComponent(entry.id)}`);
  } catch (error) {
    setStatus(t("ui.puzzles.error", { message: error.message }), "bad");
    return;
  }
  state.puzzle = data;
  state.line = [];
  state.hint = 0;
  state.busy = false;
  showView(data);
  document.getElementById("puzzle-heading").textContent = t("ui.puzzles.heading", { n: data.length, number: data.number });
  document.getElementById("puzzle-next").classList.remove("primary");
  setStatus(`${t("ui.puzzles.your_move")} ${t("ui.puzzles.moves_left", { n: movesLeft() })}`);
  renderNav();
  // Chosen from the list on a narrow screen: bring the board back into view.
  if (push && window.matchMedia("(max-width: 760px)").matches) {
    document.getElementById("puzzle-heading").scrollIntoView({ block: "start" });
  }
}

function nextPuzzle() {
  const list = allPuzzles();
  const index = list.findIndex((p) => state.puzzle && p.id === state.puzzle.id);
  const solved = solvedSet();
  const after = list.slice(index + 1).find((p) => !solved.has(p.id)) || list[(index + 1) % list.length];
  if (after) openPuzzle(after.id, true);
}

async function loadGroups() {
  const data = await request(`/api/puzzles?lang=${encodeURIComponent(lang())}`);
  state.groups = data.groups;
}

async function main() {
  await startPage();
  const root = document.getElementById("app");
  const boardHolder = el("div", { class: "puzzle-board" });
  root.replaceChildren(
    el("div", { class: "puzzle-layout" },
      el("aside", { class: "puzzle-nav", id: "puzzle-nav" }),
      el("section", { class: "puzzle-main" },
        el("h1", { id: "puzzle-heading", class: "puzzle-heading" }),
        boardHolder,
        el("p", { id: "puzzle-status", class: "puzzle-status", "aria-live": "polite" }),
        el("div", { class: "puzzle-actions" },
          el("button", { type: "button", class: "btn", id: "puzzle-hint", onclick: onHint, i18n: "ui.puzzles.hint", text: t("ui.puzzles.hint") }),
          el("button", { type: "button", class: "btn", id: "puzzle-restart", onclick: () => state.puzzle && openPuzzle(state.puzzle.id), i18n: "ui.puzzles.restart", text: t("ui.puzzles.restart") }),
          el("button", { type: "button", class: "btn", id: "puzzle-next", onclick: nextPuzzle, i18n: "ui.puzzles.next", text: t("ui.puzzles.next") }))),
    ),
  );
  state.board = createBoard(boardHolder, { interactive: true, language: lang(), onMove });
  await loadGroups();
  await openPuzzle(puzzleIdFromPath());
  window.addEventListener("popstate", () => openPuzzle(puzzleIdFromPath()));
  onLanguageChange(async () => {
    state.board.setLanguage(lang());
    await loadGroups();
    if (state.puzzle) {
      document.getElementById("puzzle-heading").textContent = t("ui.puzzles.heading", { n: state.puzzle.length, number: state.puzzle.number });
      setStatus(`${t("ui.puzzles.your_move")} ${t("ui.puzzles.moves_left", { n: movesLeft() })}`);
    }
    renderNav();
  });
  pageReady();
}

main().catch((error) => {
  console.error(error);
  const root = document.getElementById("app");
  if (root) root.textContent = `shogiban: ${error}`;
});
