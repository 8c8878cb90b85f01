// "Learn from your mistakes" (issue 27): each mistake and blunder of one side of a reviewed game
// becomes an exercise, in game order.  The position before the mistake is shown; the learner
// plays a move on the analysis page's board (its legal moves, promotion choice and drops are the
// page's: ./explore.js's tree and POST /api/positions/moves); the move is judged by
// POST /api/practice/judge against the engine's best move of the analysis.  Accepted: "Good
// move!", next.  Not accepted: "try again" with the label it would get; a second miss shows the
// best move (an arrow) and its line, and the exercise is marked missed.  Whether each exercise
// was found or missed is kept in localStorage (one key per game or record, by ply), so a reload
// keeps the progress; the summary says how many were found.
//
// This module keeps the exercises and their panel; the page moves the board (hooks below).

import { t } from "./i18n.js";
import { moveText, moveTextLang } from "./notation.js";
import { errorText, fill, h, postJson } from "./util.js";

const VERSION = 1;
const LABELS = ["mistake", "blunder"];

/** A step of a best line ({japanese, western, kitao, csa, usi}) as moveText reads a move. */
function lineStep(forms) {
  return { usi: forms.usi, label: forms.japanese, forms };
}

/** The side to move ("b" or "w") of an SFEN. */
export function turnOf(sfen) {
  const parts = String(sfen || "").split(" ");
  return parts[1] === "w" ? "w" : "b";
}

/**
 * The exercises of *side* in the analysis *result* of a game of *moves* ({usi, label, forms}
 * each), in game order: for each move labelled mistake or blunder, {ply, side, played (the
 * move), sfen (the position before it), best (USI), bestLine ([{usi, label, forms}]), moves (the
 * USI moves before it)}.  A mistake whose position has no best move (none was searched) is left out.
 */
export function exercisesOf(result, moves, side = null) {
  if (!result || !Array.isArray(result.positions)) return [];
  const exercises = [];
  for (const entry of result.positions) {
    const ply = entry && entry.ply;
    if (!Number.isInteger(ply) || ply < 1 || ply > moves.length || !LABELS.includes(entry.label)) continue;
    const before = result.positions[ply - 1];
    if (!before || !before.best_move || !before.sfen) continue;
    const mover = turnOf(before.sfen);
    if (side && mover !== side) continue;
    exercises.push({
      ply, side: mover, label: entry.label, played: moves[ply - 1], sfen: before.sfen, best: before.best_move,
      bestLine: Array.isArray(before.best_line) ? before.best_line.map(lineStep) : [],
      moves: moves.slice(0, ply - 1).map((move) => move.usi),
    });
  }
  return exercises;
}

/** The progress kept under *key*: {ply: "solved" | "failed"}. */
export class Progress {
  constructor(key) {
    this.key = key;
    this.states = {};
    try {
      const data = JSON.parse(localStorage.getItem(key) || "null");
      if (data && data.version === VERSION && data.states && typeof data.states === "object") {
        for (const [ply, state] of Object.entries(data.states)) {
          if (state === "solved" || state === "failed") this.states[ply] = state;
        }
      }
    } catch (error) {
      // Unreadable progress is forgotten: every exercise is to do.
    }
  }

  state(ply) {
    return this.states[String(ply)] || "todo";
  }

  set(ply, state) {
    if (state === "todo") delete this.states[String(ply)];
    else this.states[String(ply)] = state;
    try {
      localStorage.setItem(this.key, JSON.stringify({ version: VERSION, states: this.states }));
    } catch (error) {
      // Storage full or refused: the progress lives until the page is left.
    }
  }
}

/**
 * The panel in *host*.  hooks: {
 *   storageKey: the localStorage key of this game's or record's progress,
 *   startSfen: the game's start SFEN (the judge replays the moves from it),
 *   exercises(side): exercisesOf(...) of the analysis shown (null side: both),
 *   fixedSide(): the viewer's own side ("b" / "w"), or null to offer the choice,
 *   sideName(color): the side in words,
 *   enter(exercise): show the position before the exercise's mistake, from its side,
 *   leave(): back to the review,
 *   refresh(): the board again (arrows, whether it takes moves),
 *   announce(text): say it in the page's live region,
 * }
 */
export function createMistakes(host, hooks) {
  const progress = new Progress(hooks.storageKey);
  let chosenSide = null; // the side picked when the page does not know the viewer's
  let list = []; // the exercises being done
  let index = -1; // the one shown; list.length: the summary
  let tries = 0;
  let judging = false;
  // The last verdict: {kind: "judging" | "good" | "retry" | "failed" | "error", words(), line()?},
  // its words made again on each render (the language or the notation may change meanwhile).
  let verdict = null;
  let shownArrow = null; // the USI move drawn on the board after a verdict

  const side = () => hooks.fixedSide() || chosenSide || "b";
  const active = () => index >= 0;
  const current = () => (index >= 0 && index < list.length ? list[index] : null);

  function counts(exercises) {
    const found = exercises.filter((e) => progress.state(e.ply) === "solved").length;
    const missed = exercises.filter((e) => progress.state(e.ply) === "failed").length;
    return { found, missed, left: exercises.length - found - missed, total: exercises.length };
  }

  function stateList(exercises) {
    return h("ol", { class: "mistakes-list", id: "mistakes-list", "aria-label": t("ui.mistakes.list") },
      exercises.map((exercise, k) => {
        const state = progress.state(exercise.ply);
        return h("li", { class: `mistake-item state-${state}`, dataset: { ply: exercise.ply, state },
          "aria-current": k === index ? "step" : null },
        h("span", { lang: moveTextLang(), text: t("ui.analysis.moment", { ply: exercise.ply, move: moveText(exercise.played) }) }),
        h("span", { class: "mistake-state", text: t(`ui.mistakes.state.${state}`) }));
      }));
  }

  function start() {
    list = hooks.exercises(side());
    if (!list.length) return;
    const first = list.findIndex((exercise) => progress.state(exercise.ply) === "todo");
    if (first < 0) {
      for (const exercise of list) progress.set(exercise.ply, "todo"); // all done: practise again
      show(0);
    } else {
      show(first);
    }
  }

  function show(next) {
    index = next;
    tries = 0;
    judging = false;
    verdict = null;
    shownArrow = null;
    const exercise = current();
    if (exercise) {
      hooks.enter(exercise);
      render();
      hooks.announce(t("ui.mistakes.started", { n: index + 1, total: list.length, move: moveText(exercise.played),
        ply: exercise.ply }));
    } else {
      hooks.refresh();
      render();
      const { found, total } = counts(list);
      hooks.announce(t("ui.mistakes.summary", { found, total }));
    }
    const heading = host.querySelector("#mistakes-heading");
    if (heading) heading.focus();
  }

  function leave() {
    index = -1;
    list = [];
    verdict = null;
    shownArrow = null;
    hooks.leave();
    render();
    const button = host.querySelector("#mistakes-start");
    if (button) button.focus();
  }

  /** The learner's move *usi* ({forms} from the page's legal moves): judged.  False when no
   * move is expected now (the page puts the board back). */
  function tryMove(usi, forms) {
    const exercise = current();
    if (!exercise || judging || (verdict && (verdict.kind === "good" || verdict.kind === "failed"))) return false;
    judge(exercise, usi, forms ? lineStep(forms) : { usi, label: usi, forms: null });
    return true;
  }

  async function judge(exercise, usi, step) {
    judging = true;
    verdict = { kind: "judging", words: () => t("ui.mistakes.judging") };
    render();
    hooks.announce(verdict.words());
    let answer;
    try {
      answer = await postJson("/api/practice/judge", { sfen: hooks.startSfen, moves: exercise.moves, usi, best: exercise.best });
    } catch (error) {
      if (current() !== exercise) return;
      judging = false;
      const words = () => (error.code === "busy" ? t("ui.mistakes.busy") : error.code === "too_fast" ? t("ui.mistakes.too_fast")
        : t("ui.mistakes.error", { reason: errorText(error.code, error.message) }));
      verdict = { kind: "error", words };
      hooks.refresh();
      render();
      hooks.announce(words());
      return;
    }
    if (current() !== exercise) return; // left meanwhile
    judging = false;
    const best = () => (exercise.bestLine.length ? moveText(exercise.bestLine[0]) : exercise.best);
    const label = () => t(`ui.analysis.label.${answer.label || "inaccuracy"}`);
    if (answer.accepted) {
      progress.set(exercise.ply, "solved");
      shownArrow = usi;
      verdict = { kind: "good",
        words: () => (usi === exercise.best ? t("ui.mistakes.good_best") : t("ui.mistakes.good", { move: best() })) };
    } else {
      tries += 1;
      if (tries < 2) {
        verdict = { kind: "retry", words: () => t("ui.mistakes.retry", { move: moveText(step), label: label() }) };
      } else {
        progress.set(exercise.ply, "failed");
        shownArrow = exercise.best;
        const line = () => exercise.bestLine.map((s) => moveText(s)).join(" ");
        verdict = { kind: "failed", words: () => t("ui.mistakes.failed", { move: moveText(step), label: label(), best: best() }),
          line: () => (line() ? t("ui.analysis.best_line", { line: line() }) : "") };
      }
    }
    hooks.refresh();
    render();
    const said = verdict.line ? verdict.line() : "";
    hooks.announce(said ? `${verdict.words()} ${said}` : verdict.words());
    const next = host.querySelector("#mistakes-next");
    if (next) next.focus();
  }

  /** The board's arrows while an exercise shows. */
  function arrows() {
    if (!shownArrow) return [];
    const usi = shownArrow;
    return [usi[1] === "*" ? [usi[0], usi.slice(2, 4)] : [usi.slice(0, 2), usi.slice(2, 4)]];
  }

  /** Whether the board takes a move now. */
  function canPlay() {
    return !!current() && !judging && !(verdict && (verdict.kind === "good" || verdict.kind === "failed"));
  }

  const button = (id, key, onclick, primary = false) => h("button", {
    class: primary ? "btn primary" : "btn", type: "button", id, text: t(key), onclick });

  function renderIdle() {
    const fixed = hooks.fixedSide();
    const mine = hooks.exercises(side());
    const { found, missed, left, total } = counts(mine);
    const choice = fixed ? null : h("label", { class: "row" }, t("ui.mistakes.side"), " ",
      h("select", { id: "mistakes-side", onchange: (event) => { chosenSide = event.target.value; render(); } },
        ["b", "w"].map((color) => h("option", { value: color, text: hooks.sideName(color), selected: color === side() }))));
    const started = found + missed > 0;
    fill(host,
      h("h2", { class: "card-title", id: "mistakes-title", text: t("ui.mistakes.title") }),
      choice,
      total ? h("p", { id: "mistakes-count", text: t("ui.mistakes.count", { side: hooks.sideName(side()), n: total }) })
        : h("p", { class: "muted", id: "mistakes-count", text: t("ui.mistakes.none", { side: hooks.sideName(side()) }) }),
      started ? h("p", { class: "muted", id: "mistakes-progress", text: t("ui.mistakes.progress", { found, missed, left }) }) : null,
      started ? stateList(mine) : null,
      total ? h("div", { class: "row wrap" },
        button("mistakes-start", !started ? "ui.mistakes.start" : left ? "ui.mistakes.resume" : "ui.mistakes.again", start, true))
        : null);
  }

  function renderExercise(exercise) {
    const last = index === list.length - 1;
    const over = verdict && (verdict.kind === "good" || verdict.kind === "failed");
    fill(host,
      h("h2", { class: "card-title", id: "mistakes-title", text: t("ui.mistakes.title") }),
      h("p", { class: "mistakes-heading", id: "mistakes-heading", tabindex: -1,
        text: t("ui.mistakes.exercise", { n: index + 1, total: list.length }) }),
      h("p", { class: "mistakes-prompt", id: "mistakes-prompt",
        text: t("ui.mistakes.prompt", { move: moveText(exercise.played), ply: exercise.ply }) }),
      h("p", { class: "muted small", text: t("ui.mistakes.help") }),
      verdict ? h("p", { class: `mistakes-verdict verdict-${verdict.kind}`, id: "mistakes-verdict",
        dataset: { kind: verdict.kind }, text: verdict.words() }) : null,
      verdict && verdict.line && verdict.line() ? h("p", { class: "best-line", id: "mistakes-line", lang: moveTextLang(),
        text: verdict.line() }) : null,
      h("div", { class: "row wrap" },
        over ? button("mistakes-next", last ? "ui.mistakes.finish" : "ui.mistakes.next", () => show(index + 1), true) : null,
        button("mistakes-leave", "ui.mistakes.leave", leave)),
      stateList(list));
  }

  function renderSummary() {
    const { found, total } = counts(list);
    fill(host,
      h("h2", { class: "card-title", id: "mistakes-title", text: t("ui.mistakes.title") }),
      h("p", { class: "mistakes-heading", id: "mistakes-heading", tabindex: -1, text: t("ui.mistakes.summary", { found, total }) }),
      stateList(list),
      h("div", { class: "row wrap" }, button("mistakes-leave", "ui.mistakes.leave", leave, true)));
  }

  function render() {
    host.dataset.mode = !active() ? "idle" : current() ? "exercise" : "summary";
    const exercise = current();
    if (!active()) renderIdle();
    else if (exercise) renderExercise(exercise);
    else renderSummary();
  }

  return {
    render,
    tryMove,
    arrows,
    canPlay,
    leave,
    get active() { return active(); },
  };
}
