// The "Learn" page (/learn, /learn/<lesson>): lessons with diagrams and boards to try moves on.

import { createBoard } from "/static/js/board.js";
import { onLanguageChange, t } from "/static/js/i18n.js";
import { el, lang, pageReady, request, startPage } from "./common.js";

const state = { lessons: [], current: null, lesson: null, boards: [] };

function lessonIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts[0] === "learn" && parts[1] ? decodeURIComponent(parts[1]) : null;
}

function destroyBoards() {
  for (const board of state.boards) board.destroy();
  state.boards = [];
}

function makeBoard(container, options) {
  const board = createBoard(container, { language: lang(), ...options });
  state.boards.push(board);
  return board;
}

// -- the list of lessons ------------------------------------------------------------------

function renderNav(nav) {
  nav.replaceChildren();
  for (const group of ["pieces", "rules", "game", "strategy"]) {
    const items = state.lessons.filter((lesson) => lesson.group === group);
    nav.append(el("h2", { i18n: `ui.learn.${group}`, text: t(`ui.learn.${group}`) }));
    const list = el("ol", { class: "learn-list" });
    for (const lesson of items) {
      const link = el("a", {
        href: `/learn/${lesson.id}`,
        class: "learn-link",
        "data-lesson": lesson.id,
        "aria-current": lesson.id === state.current ? "page" : null,
        onclick: (event) => {
          event.preventDefault();
          openLesson(lesson.id, true);
        },
      }, lesson.title);
      list.append(el("li", {}, link));
    }
    nav.append(list);
  }
}

async function loadIndex() {
  const data = await request(`/api/learn/lessons?lang=${encodeURIComponent(lang())}`);
  state.lessons = data.lessons;
  renderNav(document.getElementById("learn-nav"));
}

// -- one lesson ---------------------------------------------------------------------------

function diagramFigure(section) {
  const diagram = section.diagram;
  const figure = el("div", { class: "lesson-figure" });
  const holder = el("div", { class: "lesson-board" });
  figure.append(holder);
  const board = makeBoard(holder, { interactive: false });
  const start = { sfen: diagram.sfen, highlights: diagram.highlights, arrows: diagram.arrows, check: diagram.check };
  board.setPosition(start);
  if (!diagram.steps || !diagram.steps.length) return figure;

  // A sequence to step through: the last step carries how the game ends.
  const steps = diagram.steps;
  let at = 0;
  const caption = el("p", { class: "lesson-caption", "aria-live": "polite" });
  const show = () => {
    figure.dataset.step = String(at);
    if (at === 0) {
      board.setPosition(start);
      caption.textContent = diagram.caption || t("ui.learn.step_start");
    } else {
      const step = steps[at - 1];
      board.setPosition({ sfen: step.sfen, lastMove: step.lastMove, check: step.check, highlights: step.highlights });
      // A step may name itself (a piece placed, a handicap, a move in three notations).
      let text = step.caption || t("ui.learn.step", { n: at, total: steps.length });
      if (step.repetitions > 1) text += ` ${t("ui.learn.repetition", { count: step.repetitions })}`;
      caption.textContent = text;
      if (step.end) caption.append(el("strong", { class: "lesson-end" }, ` ${step.end}`));
    }
  };
  const button = (key, symbol, go) => el("button", {
    type: "button", class: "btn small", title: t(key), "aria-label": t(key), "data-step": key,
    onclick: () => { at = Math.max(0, Math.min(steps.length, go())); show(); },
  }, symbol);
  figure.append(el("div", { class: "lesson-steps" },
    button("ui.learn.first", "◀◀", () => 0),
    button("ui.learn.prev", "◀", () => at - 1),
    button("ui.learn.next", "▶", () => at + 1),
    button("ui.learn.last", "▶▶", () => steps.length)));
  figure.append(caption);
  show();
  return figure;
}

// Feedback of an answer: the sentence, good or bad, and data-success for tests and styles.
function showFeedback(feedback, result) {
  feedback.textContent = result.feedback;
  feedback.className = `lesson-feedback ${result.success ? "good" : "bad"}`;
  feedback.dataset.success = String(result.success);
  feedback.dataset.code = result.code || "";
}

function answerUrl(lessonId, section) {
  return `/api/learn/lessons/${lessonId}/sections/${section.index}/answer`;
}

// "square" and "placement": the learner clicks squares; the server says whether it is the one asked
// for (a placement: the next piece's square) and why not.
function squareFigure(lessonId, section) {
  const exercise = section.exercise;
  const placement = exercise.goal === "placement";
  const figure = el("div", { class: `lesson-figure lesson-exercise lesson-${exercise.goal}` });
  const holder = el("div", { class: "lesson-board" });
  const prompt = el("p", { class: "lesson-prompt", "aria-live": "polite" });
  const feedback = el("p", { class: "lesson-feedback", "aria-live": "polite", text: t("ui.learn.click_square") });
  let step = 0;
  let busy = false;
  const setStep = (value, text) => {
    step = value;
    figure.dataset.step = String(step);
    if (placement) prompt.textContent = text;
  };
  const board = makeBoard(holder, {
    interactive: true,
    onSelect: async (square) => {
      if (busy || square.endsWith("*")) return; // a hand piece: only squares are answers
      busy = true;
      try {
        const body = { square, lang: lang() };
        if (placement) body.step = step;
        const result = await request(answerUrl(lessonId, section), body);
        board.setPosition({ sfen: result.sfen, highlights: result.highlights });
        if (placement) setStep(result.step, result.prompt);
        showFeedback(feedback, result);
        figure.dataset.done = String(result.done);
      } catch (error) {
        feedback.textContent = error.message;
      } finally {
        busy = false;
      }
    },
  });
  const reset = () => {
    board.setPosition({ sfen: exercise.sfen, highlights: exercise.highlights });
    setStep(0, exercise.prompt);
    feedback.textContent = t("ui.learn.click_square");
    feedback.className = "lesson-feedback";
    delete feedback.dataset.success;
    figure.dataset.done = "false";
  };
  reset();
  if (placement) figure.append(prompt);
  figure.append(holder, feedback,
    el("div", { class: "lesson-actions" },
      el("button", { type: "button", class: "btn small", "data-action": "reset", onclick: reset, text: t("ui.learn.reset") })));
  return figure;
}

// "choice": the board shows a position (a move just played, a handicap); the learner picks its name.
function choiceFigure(lessonId, section) {
  const exercise = section.exercise;
  const figure = el("div", { class: "lesson-figure lesson-exercise lesson-choice" });
  const holder = el("div", { class: "lesson-board" });
  const feedback = el("p", { class: "lesson-feedback", "aria-live": "polite", text: t("ui.learn.pick") });
  const board = makeBoard(holder, { interactive: false });
  const start = { sfen: exercise.sfen, lastMove: exercise.lastMove, check: exercise.check, highlights: exercise.highlights };
  board.setPosition(start);
  const list = el("div", { class: "lesson-choices", role: "group" });
  for (const choice of exercise.choices) {
    const button = el("button", {
      type: "button", class: "btn small lesson-choice-button", "data-choice": choice.id,
      onclick: async () => {
        let result;
        try {
          result = await request(answerUrl(lessonId, section), { choice: choice.id, lang: lang() });
        } catch (error) {
          feedback.textContent = error.message;
          return;
        }
        board.setArrows(result.arrows || []);
        for (const other of list.children) other.removeAttribute("aria-pressed");
        button.setAttribute("aria-pressed", "true");
        button.dataset.result = result.success ? "good" : "bad";
        showFeedback(feedback, result);
      },
    }, choice.label);
    list.append(button);
  }
  figure.append(holder, list, feedback);
  return figure;
}

function exerciseFigure(lessonId, section) {
  const exercise = section.exercise;
  if (exercise.goal === "square" || exercise.goal === "placement") return squareFigure(lessonId, section);
  if (exercise.goal === "choice") return choiceFigure(lessonId, section);
  const figure = el("div", { class: "lesson-figure lesson-exercise" });
  const holder = el("div", { class: "lesson-board" });
  const feedback = el("p", { class: "lesson-feedback", "aria-live": "polite", text: t("ui.learn.try_here") });
  const start = {
    sfen: exercise.sfen, dests: exercise.dests, dropDests: exercise.dropDests, check: exercise.check,
    highlights: exercise.highlights,
  };
  let board = null;
  const reset = () => {
    board.setPosition(start);
    feedback.textContent = t("ui.learn.try_here");
    feedback.className = "lesson-feedback";
    delete feedback.dataset.success;
    delete feedback.dataset.code;
  };
  board = makeBoard(holder, {
    interactive: true,
    onMove: async (usi) => {
      let result;
      try {
        result = await request(`/api/learn/lessons/${lessonId}/sections/${section.index}/try`, { usi, lang: lang() });
      } catch (error) {
        feedback.textContent = error.message;
        board.setPosition(start);
        return;
      }
      if (result.legal) {
        board.setPosition({ sfen: result.sfen, lastMove: result.lastMove, check: result.check });
      } else {
        board.setPosition(start);
      }
      feedback.textContent = result.feedback;
      feedback.className = `lesson-feedback ${result.success ? "good" : "bad"}`;
      feedback.dataset.success = String(result.success);
      feedback.dataset.code = result.code || "";
    },
  });
  board.setPosition(start);
  figure.append(holder, feedback,
    el("div", { class: "lesson-actions" },
      el("button", { type: "button", class: "btn small", "data-action": "reset", onclick: reset, text: t("ui.learn.reset") })));
  return figure;
}

function renderLesson(lesson) {
  destroyBoards();
  const article = document.getElementById("lesson");
  article.replaceChildren();
  article.append(el("h1", { class: "lesson-title" }, lesson.title));
  for (const section of lesson.sections) {
    const box = el("section", { class: "lesson-section", "data-index": section.index });
    const text = el("div", { class: "lesson-text" });
    for (const paragraph of section.paragraphs) text.append(el("p", {}, paragraph));
    if (section.links && section.links.length) {
      // Lessons that teach the rest of this topic.
      const links = el("p", { class: "lesson-links" }, `${t("ui.learn.see_also")} `);
      section.links.forEach((other, n) => {
        if (n) links.append(" · ");
        links.append(el("a", {
          href: `/learn/${other.id}`, class: "lesson-link", "data-lesson": other.id,
          onclick: (event) => { event.preventDefault(); openLesson(other.id, true); },
        }, other.title));
      });
      text.append(links);
    }
    box.append(text);
    if (section.exercise) box.append(exerciseFigure(lesson.id, section));
    else if (section.diagram) box.append(diagramFigure(section));
    article.append(box);
  }
  const index = state.lessons.findIndex((item) => item.id === lesson.id);
  const pager = el("nav", { class: "lesson-pager" });
  const previous = state.lessons[index - 1];
  const next = state.lessons[index + 1];
  if (previous) {
    pager.append(el("a", { href: `/learn/${previous.id}`, class: "btn", onclick: (e) => { e.preventDefault(); openLesson(previous.id, true); } },
      `← ${t("ui.learn.previous_lesson")}: ${previous.title}`));
  }
  if (next) {
    pager.append(el("a", { href: `/learn/${next.id}`, class: "btn primary", "data-action": "next-lesson", onclick: (e) => { e.preventDefault(); openLesson(next.id, true); } },
      `${t("ui.learn.next_lesson")}: ${next.title} →`));
  } else {
    pager.append(el("a", { href: "/puzzles", class: "btn primary" }, t("ui.learn.to_puzzles")));
  }
  article.append(pager);
  document.title = `${lesson.title} · shogiban`;
}

function renderWelcome() {
  destroyBoards();
  const article = document.getElementById("lesson");
  article.replaceChildren(
    el("h1", { class: "lesson-title", i18n: "ui.learn.title", text: t("ui.learn.title") }),
    el("p", { i18n: "ui.learn.intro", text: t("ui.learn.intro") }),
    el("p", { i18n: "ui.learn.choose", text: t("ui.learn.choose") }),
  );
}

async function openLesson(id, push = false) {
  state.current = id;
  if (push) history.pushState({ lesson: id }, "", id ? `/learn/${id}` : "/learn");
  renderNav(document.getElementById("learn-nav"));
  if (!id) {
    renderWelcome();
    return;
  }
  try {
    state.lesson = await request(`/api/learn/lessons/${encodeURIComponent(id)}?lang=${encodeURIComponent(lang())}`);
  } catch (error) {
    document.getElementById("lesson").replaceChildren(el("p", { class: "lesson-feedback bad" }, error.message));
    return;
  }
  renderLesson(state.lesson);
  window.scrollTo(0, 0);
}

async function main() {
  await startPage();
  const root = document.getElementById("app");
  root.replaceChildren(
    el("div", { class: "learn-layout" },
      el("aside", { class: "learn-nav", id: "learn-nav", "aria-label": t("ui.learn.title") }),
      el("article", { class: "learn-lesson", id: "lesson" })),
  );
  await loadIndex();
  await openLesson(lessonIdFromPath());
  window.addEventListener("popstate", () => openLesson(lessonIdFromPath()));
  onLanguageChange(async () => {
    await loadIndex();
    await openLesson(state.current);
  });
  pageReady();
}

main().catch((error) => {
  console.error(error);
  const root = document.getElementById("app");
  if (root) root.textContent = `shogiban: ${error}`;
});
