// The "Puzzles" page (/puzzles, /puzzles/<id>): mate problems of 1 to 11 moves, by length and
// by theme, a daily puzzle, and a puzzle rating (Glicko-2) kept in this browser.
//
// The learner plays the attacker.  Each move goes to the server, which checks it with the tsume
// solver (any move that still mates in time is accepted) and answers with the defender's longest
// resistance.  Solved problems, the chosen group and the rating are remembered in localStorage.
// The first try of a problem counts for the rating: solved alone 1, solved with a hint 0.5, a
// wrong move or the solution shown 0, against the problem's own rating (deviation 80).

import { createBoard } from "/static/js/board.js";
import { onLanguageChange, pieceName, t } from "/static/js/i18n.js";
import { moveText, onNotationChange } from "/static/js/notation.js";
import { el, lang, pageReady, request, startPage } from "./common.js";
import { INITIAL, update } from "./glicko.js";

const SOLVED_KEY = "shogiban.puzzles.solved";
const RATED_KEY = "shogiban.puzzles.rated";
const RATING_KEY = "shogiban.puzzles.rating";
const GROUP_KEY = "shogiban.puzzles.group";
const PUZZLE_RD = 80;
const state = {
  groups: [], themes: [], daily: null, groupKey: null, puzzle: null, line: [], view: null, hint: 0, busy: false,
  board: null, failed: false, hinted: false, solution: null,
};

function readJson(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || "null");
    return value === null ? fallback : value;
  } catch (error) {
    return fallback;
  }
}

function writeJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (error) {
    // Storage disabled: progress is only a convenience.
  }
}

function solvedSet() {
  const list = readJson(SOLVED_KEY, []);
  return new Set(Array.isArray(list) ? list : []);
}

function markSolved(id) {
  const solved = solvedSet();
  solved.add(id);
  writeJson(SOLVED_KEY, [...solved]);
}

/** The learner's rating {rating, rd, volatility}. */
function learnerRating() {
  const saved = readJson(RATING_KEY, null);
  return saved && Number.isFinite(saved.rating) && Number.isFinite(saved.rd) && Number.isFinite(saved.volatility)
    ? saved : { ...INITIAL };
}

/** Count the first try of *entry* for the rating; returns the change, or null if already counted. */
function rate(entry, score) {
  const rated = new Set(readJson(RATED_KEY, []));
  if (!entry || rated.has(entry.id)) return null;
  const before = learnerRating();
  const after = update(before, [{ rating: entry.rating, rd: PUZZLE_RD, score }]);
  writeJson(RATING_KEY, after);
  rated.add(entry.id);
  writeJson(RATED_KEY, [...rated]);
  return Math.round(after.rating) - Math.round(before.rating);
}

function puzzleIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts[0] === "puzzles" && parts[1] ? decodeURIComponent(parts[1]) : null;
}

function allPuzzles() {
  return state.groups.flatMap((group) => group.puzzles.map((p) => ({ ...p, length: group.length })));
}

function entryOf(id) {
  return allPuzzles().find((p) => p.id === id) || null;
}

/** Every group the learner may choose: by length, then by theme. */
function groupList() {
  const byId = new Map(allPuzzles().map((p) => [p.id, p]));
  return [
    ...state.groups.map((group) => ({ key: group.key, title: t("ui.puzzles.mate_in", { n: group.length }), entries: group.puzzles.map((p) => byId.get(p.id)), byLength: true })),
    ...state.themes.map((theme) => ({ key: theme.key, title: t(`ui.puzzles.theme.${theme.theme}`), entries: theme.puzzles.map((id) => byId.get(id)).filter(Boolean), byLength: false })),
  ];
}

function currentGroup() {
  const groups = groupList();
  return groups.find((group) => group.key === state.groupKey) || groups[0] || { key: null, title: "", entries: [] };
}

function chooseGroup(key) {
  state.groupKey = key;
  writeJson(GROUP_KEY, key);
}

// -- the list -----------------------------------------------------------------------------

function renderNav() {
  const nav = document.getElementById("puzzle-nav");
  const solved = solvedSet();
  const rating = learnerRating();
  const group = currentGroup();
  nav.replaceChildren(el("p", { class: "puzzle-intro", text: t("ui.puzzles.intro") }));
  nav.append(el("p", { class: "puzzle-rating", id: "puzzle-rating" },
    t("ui.puzzles.rating", { rating: Math.round(rating.rating), rd: Math.round(rating.rd) })));
  const quick = el("div", { class: "puzzle-quick" });
  if (state.daily) {
    quick.append(el("button", { type: "button", class: "btn", id: "puzzle-daily", text: t("ui.puzzles.daily"),
      onclick: () => openPuzzle(state.daily.id, true) }));
  }
  quick.append(el("button", { type: "button", class: "btn", id: "puzzle-for-you", text: t("ui.puzzles.for_you"),
    onclick: () => { const pick = forYou(); if (pick) openPuzzle(pick.id, true); } }));
  nav.append(quick);
  const select = el("select", { id: "puzzle-group", "aria-label": t("ui.puzzles.group") });
  for (const choice of groupList()) {
    const done = choice.entries.filter((p) => solved.has(p.id)).length;
    const option = el("option", { value: choice.key, text: `${choice.title} (${done}/${choice.entries.length})` });
    option.selected = choice.key === group.key;
    select.append(option);
  }
  select.addEventListener("change", () => { chooseGroup(select.value); renderNav(); });
  nav.append(el("label", { class: "puzzle-group-label" }, el("span", { text: t("ui.puzzles.group") }), select));
  const grid = el("div", { class: "puzzle-grid" });
  for (const puzzle of group.entries) {
    const done = solved.has(puzzle.id);
    grid.append(el("a", {
      href: `/puzzles/${puzzle.id}`,
      class: `puzzle-button${done ? " solved" : ""}`,
      "data-puzzle": puzzle.id,
      "aria-current": state.puzzle && state.puzzle.id === puzzle.id ? "page" : null,
      title: [t("ui.puzzles.mate_in", { n: puzzle.length }), String(puzzle.rating), done ? t("ui.puzzles.solved_mark") : null]
        .filter(Boolean).join(" · "),
      onclick: (event) => { event.preventDefault(); openPuzzle(puzzle.id, true); },
    }, group.byLength ? String(puzzle.number) : `${puzzle.length}-${puzzle.number}`));
  }
  // The list stays folded: a phone shows the board, not hundreds of buttons.
  nav.append(el("details", { class: "puzzle-list", id: "puzzle-list" },
    el("summary", { text: t("ui.puzzles.all_in_group", { n: group.entries.length }) }), grid));
  const total = allPuzzles().length;
  const count = allPuzzles().filter((p) => solved.has(p.id)).length;
  nav.append(el("p", { class: "puzzle-progress", id: "puzzle-progress" }, t("ui.puzzles.progress", { solved: count, total })));
  nav.append(el("p", { class: "puzzle-source" }, t("ui.puzzles.source")));
}

/** An unsolved problem of the chosen group rated nearest to the learner. */
function forYou() {
  const solved = solvedSet();
  const target = learnerRating().rating;
  const entries = currentGroup().entries.filter((p) => !solved.has(p.id) && (!state.puzzle || p.id !== state.puzzle.id));
  if (!entries.length) return currentGroup().entries[0] || null;
  return entries.reduce((best, p) => (Math.abs(p.rating - target) < Math.abs(best.rating - target) ? p : best));
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
    state.failed = true;
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
    const change = rate(entryOf(puzzle.id), state.failed ? 0 : state.hinted ? 0.5 : 1);
    const rated = change === null ? ""
      : ` ${t("ui.puzzles.rating_change", { rating: Math.round(learnerRating().rating), change: change >= 0 ? `+${change}` : String(change) })}`;
    // The server's message is the whole sentence ("Solved: checkmate!"): nothing goes before it.
    setStatus(`${result.message}${rated}`, "good");
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
  state.hinted = true;
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
  state.failed = false;
  state.hinted = false;
  state.solution = null;
  renderSolution();
  if (!currentGroup().entries.some((p) => p.id === entry.id)) chooseGroup(`mate-${entry.length}`);
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
  const list = currentGroup().entries;
  const index = list.findIndex((p) => state.puzzle && p.id === state.puzzle.id);
  const solved = solvedSet();
  const after = list.slice(index + 1).find((p) => !solved.has(p.id)) || list[(index + 1) % list.length];
  if (after) openPuzzle(after.id, true);
}

async function loadGroups() {
  const data = await request(`/api/puzzles?lang=${encodeURIComponent(lang())}`);
  state.groups = data.groups;
  state.themes = data.themes || [];
  state.daily = data.daily || null;
  if (state.groupKey === null) state.groupKey = readJson(GROUP_KEY, null);
}

// -- the solution -------------------------------------------------------------------------

async function showSolution() {
  if (!state.puzzle || state.busy) return;
  const puzzle = state.puzzle;
  let data;
  try {
    data = await request(`/api/puzzles/${encodeURIComponent(puzzle.id)}/solution`);
  } catch (error) {
    setStatus(t("ui.puzzles.error", { message: error.message }), "bad");
    return;
  }
  if (state.puzzle !== puzzle) return;
  state.failed = true;
  rate(entryOf(puzzle.id), 0);
  state.solution = data;
  renderSolution();
  showStep(data.steps.length - 1);
  setStatus(t("ui.puzzles.solution_shown"), "hint");
  renderNav();
}

function showStep(index) {
  const steps = state.solution ? state.solution.steps : [];
  const step = steps[index];
  if (!step) return;
  state.board.setPosition({ sfen: step.sfen, lastMove: step.usi, check: step.check });
  for (const item of document.querySelectorAll("#puzzle-solution-list button")) {
    item.setAttribute("aria-current", Number(item.dataset.index) === index ? "step" : "false");
  }
}

function renderSolution() {
  const box = document.getElementById("puzzle-solution-list");
  if (!box) return;
  const steps = state.solution ? state.solution.steps : [];
  box.hidden = !steps.length;
  box.replaceChildren(...(steps.length ? [el("h2", { text: t("ui.puzzles.solution_title") })] : []),
    // Each step's number is written beside its move (a flex list puts the list's own markers
    // over the previous move).
    el("ol", { class: "solution-steps" }, steps.map((step, index) => el("li", { class: "solution-step" },
      el("span", { class: "step-number", text: `${index + 1}.` }),
      el("button", { type: "button", class: "chip", "data-index": index, onclick: () => showStep(index) }, moveText(step))))));
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
          el("button", { type: "button", class: "btn", id: "puzzle-solution", onclick: showSolution, i18n: "ui.puzzles.solution", text: t("ui.puzzles.solution") }),
          el("button", { type: "button", class: "btn", id: "puzzle-next", onclick: nextPuzzle, i18n: "ui.puzzles.next", text: t("ui.puzzles.next") })),
        el("div", { class: "puzzle-solution", id: "puzzle-solution-list", hidden: true })),
    ),
  );
  state.board = createBoard(boardHolder, { interactive: true, language: lang(), onMove });
  await loadGroups();
  await openPuzzle(puzzleIdFromPath());
  window.addEventListener("popstate", () => openPuzzle(puzzleIdFromPath()));
  onNotationChange(() => renderSolution());
  onLanguageChange(async () => {
    state.board.setLanguage(lang());
    await loadGroups();
    if (state.puzzle) {
      document.getElementById("puzzle-heading").textContent = t("ui.puzzles.heading", { n: state.puzzle.length, number: state.puzzle.number });
      setStatus(`${t("ui.puzzles.your_move")} ${t("ui.puzzles.moves_left", { n: movesLeft() })}`);
    }
    renderNav();
    renderSolution();
  });
  pageReady();
}

main().catch((error) => {
  console.error(error);
  const root = document.getElementById("app");
  if (root) root.textContent = `shogiban: ${error}`;
});
