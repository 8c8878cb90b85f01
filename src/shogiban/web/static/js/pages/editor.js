// The position editor (/editor, /editor?sfen=...): place pieces from a piece box, set the hands
// and the side to move, start from any handicap or an empty board; the server explains what is
// wrong with the position (二歩, a piece that could never move, ...), and from a sound position
// the player starts a game, solves it as tsume, or copies its SFEN and a link.
//
// Rule-free like every page: the problems and the solver's answer come from shogiban.web.editor.

import { createBoard } from "../board.js";
import { currentLanguage, describeError, onLanguageChange, pieceName, sideLabel, t } from "../i18n.js";
import { moveText, onNotationChange } from "../notation.js";
import { api, copyText, errorText, fill, h, postJson, toast } from "../util.js";

const SETUP_KEY = "shogiban.setup";
const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const EMPTY = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
const BOX = ["K", "R", "B", "G", "S", "N", "L", "P", "+R", "+B", "+S", "+N", "+L", "+P"];
const HAND = ["R", "B", "G", "S", "N", "L", "P"];
const HAND_MOST = { R: 2, B: 2, G: 4, S: 4, N: 4, L: 4, P: 18 };

/** {squares: [81 of {type, color} | null], hands: {b, w}, turn} of an SFEN (no validation). */
export function parseSfen(sfen) {
  const [placement = "", turn = "b", hand = "-"] = String(sfen).trim().split(/\s+/);
  const squares = [];
  for (const row of placement.split("/")) {
    let promoted = false;
    for (const c of row) {
      if (c === "+") { promoted = true; continue; }
      if (/[1-9]/.test(c)) { for (let i = 0; i < Number(c); i++) squares.push(null); continue; }
      const color = c === c.toUpperCase() ? "b" : "w";
      squares.push({ type: (promoted ? "+" : "") + c.toUpperCase(), color });
      promoted = false;
    }
  }
  while (squares.length < 81) squares.push(null);
  const hands = { b: {}, w: {} };
  let count = "";
  for (const c of hand === "-" ? "" : hand) {
    if (/[0-9]/.test(c)) { count += c; continue; }
    const side = c === c.toUpperCase() ? "b" : "w";
    hands[side][c.toUpperCase()] = (hands[side][c.toUpperCase()] || 0) + (Number(count) || 1);
    count = "";
  }
  return { squares: squares.slice(0, 81), hands, turn: turn === "w" ? "w" : "b" };
}

/** The SFEN of an editor model, move number 1. */
export function makeSfen(model) {
  const rows = [];
  for (let r = 0; r < 9; r++) {
    let row = "";
    let empty = 0;
    for (let c = 0; c < 9; c++) {
      const piece = model.squares[r * 9 + c];
      if (!piece) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += model.squares[r * 9 + c].color === "b" ? piece.type : piece.type.toLowerCase();
    }
    if (empty) row += empty;
    rows.push(row);
  }
  let hand = "";
  for (const side of ["b", "w"]) {
    for (const letter of HAND) {
      const n = model.hands[side][letter] || 0;
      if (n) hand += (n > 1 ? n : "") + (side === "b" ? letter : letter.toLowerCase());
    }
  }
  return `${rows.join("/")} ${model.turn} ${hand || "-"} 1`;
}

/** A test of whether an SFEN is the position of *sfen* (board, side to move, hands; any move number). */
function samePosition(sfen) {
  const key = (text) => String(text).trim().split(/\s+/).slice(0, 3).join(" ");
  const mine = key(sfen);
  return (other) => key(other) === mine;
}

function squareIndexOf(name) {
  const file = "987654321".indexOf(name[0]);
  const rank = "abcdefghi".indexOf(name[1]);
  return file < 0 || rank < 0 ? -1 : rank * 9 + file;
}

// A problem is a refusal of the rules core: its words come from the catalogue's rules domain.
function problemText(problem) {
  return describeError(problem.code, problem.message, problem.params);
}

export async function mount(root) {
  let config = { handicaps: [] };
  try {
    config = await api("/api/config");
  } catch (error) {
    toast(errorText(error.code, error.message), "error");
  }
  const fromUrl = new URLSearchParams(location.search).get("sfen");
  let model = parseSfen(fromUrl || START);
  let tool = { kind: "piece", type: "K", color: "b" };
  let verdict = null;
  let solution = null;
  let checkSerial = 0;

  const boardHolder = h("div", { class: "editor-board", id: "editor-board" });
  const box = h("div", { class: "editor-box", id: "editor-box", role: "toolbar" });
  const hands = h("div", { class: "editor-hands", id: "editor-hands" });
  const settings = h("div", { class: "editor-settings" });
  const problems = h("div", { class: "editor-problems", id: "editor-problems", role: "status", "aria-live": "polite" });
  const actions = h("div", { class: "editor-actions row wrap" });
  const solved = h("div", { class: "editor-solution", id: "editor-solution" });
  fill(root, h("div", { class: "editor-layout" },
    h("section", { class: "editor-main" }, h("h1", { class: "card-title", "data-i18n": "ui.editor.title" }),
      h("p", { class: "muted", "data-i18n": "ui.editor.intro" }), boardHolder, box),
    h("aside", { class: "editor-side" }, settings, hands, problems, actions, solved)));

  const board = createBoard(boardHolder, {
    // Interactive with nothing to move: every click reaches onSelect, nothing is dragged.
    interactive: true, language: currentLanguage(), coordinates: true, animation: false,
    onSelect: (name) => { if (!name.endsWith("*")) onSquare(squareIndexOf(name)); },
  });

  function onSquare(index) {
    if (index < 0) return;
    const here = model.squares[index];
    if (tool.kind === "remove") model.squares[index] = null;
    else if (tool.kind === "flip") { if (here) here.color = here.color === "b" ? "w" : "b"; }
    else if (tool.kind === "promote") {
      if (here && here.type !== "K" && here.type !== "G") {
        here.type = here.type.startsWith("+") ? here.type.slice(1) : `+${here.type}`;
      }
    } else if (here && here.type === tool.type && here.color === tool.color) model.squares[index] = null;
    else model.squares[index] = { type: tool.type, color: tool.color };
    changed();
  }

  function renderBox() {
    const tools = BOX.map((type) => h("button", {
      type: "button", class: `btn small editor-piece${tool.kind === "piece" && tool.type === type ? " active" : ""}`,
      dataset: { piece: type }, "aria-pressed": tool.kind === "piece" && tool.type === type ? "true" : "false",
      text: pieceName(type), onclick: () => { tool = { kind: "piece", type, color: tool.color }; renderBox(); },
    }));
    const colour = h("button", {
      type: "button", class: "btn small", id: "editor-colour",
      text: t(tool.color === "b" ? "ui.editor.placing_sente" : "ui.editor.placing_gote"),
      onclick: () => { tool = { ...tool, color: tool.color === "b" ? "w" : "b" }; renderBox(); },
    });
    const special = ["remove", "flip", "promote"].map((kind) => h("button", {
      type: "button", class: `btn small${tool.kind === kind ? " active" : ""}`, id: `editor-${kind}`,
      "aria-pressed": tool.kind === kind ? "true" : "false", text: t(`ui.editor.${kind}`),
      onclick: () => { tool = { kind, type: tool.type, color: tool.color }; renderBox(); },
    }));
    fill(box, colour, ...tools, ...special);
  }

  function renderHands() {
    const rows = ["b", "w"].map((side) => h("div", { class: "editor-hand-row", dataset: { side } },
      h("span", { class: "editor-hand-side", text: `${sideLabel(side)} ${t("ui.editor.hand")}` }),
      HAND.map((letter) => {
        const n = model.hands[side][letter] || 0;
        return h("span", { class: "editor-hand-piece" },
          h("span", { text: `${pieceName(letter)} ${n}` }),
          h("button", { type: "button", class: "btn small", "aria-label": `${pieceName(letter)} −`, text: "−", disabled: n === 0,
            dataset: { hand: `${side}-${letter}-minus` },
            onclick: () => { model.hands[side][letter] = Math.max(0, n - 1); changed(); } }),
          h("button", { type: "button", class: "btn small", "aria-label": `${pieceName(letter)} +`, text: "+", disabled: n >= HAND_MOST[letter],
            dataset: { hand: `${side}-${letter}-plus` },
            onclick: () => { model.hands[side][letter] = n + 1; changed(); } }));
      })));
    fill(hands, h("h2", { class: "card-title", text: t("ui.editor.hands") }), ...rows);
  }

  function renderSettings() {
    const turn = h("select", { id: "editor-turn", "aria-label": t("ui.editor.turn") },
      ["b", "w"].map((side) => h("option", { value: side, selected: model.turn === side, text: sideLabel(side) })));
    turn.addEventListener("change", () => { model.turn = turn.value; changed(); });
    // The choice that gives the board as it is stays shown (the settings are drawn anew on
    // every change); once the position is edited, none does and the placeholder is back.
    const now = samePosition(makeSfen(model));
    const start = h("select", { id: "editor-start", "aria-label": t("ui.editor.start_from") },
      h("option", { value: "", text: t("ui.editor.start_from") }),
      h("option", { value: START, selected: now(START), text: t("ui.editor.start_position") }),
      h("option", { value: EMPTY, selected: now(EMPTY), text: t("ui.editor.empty_board") }),
      (config.handicaps || []).filter((hc) => hc.sfen !== START).map((hc) => h("option", {
        value: hc.sfen, selected: now(hc.sfen), text: currentLanguage() === "ja" ? hc.japanese : t(`ui.handicap.${hc.english}`),
      })));
    start.addEventListener("change", () => { if (start.value) { model = parseSfen(start.value); changed(); } });
    const sfen = h("input", { type: "text", id: "editor-sfen", class: "link-input", value: makeSfen(model), "aria-label": t("ui.editor.sfen"), spellcheck: "false" });
    const load = h("button", { type: "button", class: "btn small", id: "editor-load", text: t("ui.editor.load"),
      onclick: () => { model = parseSfen(sfen.value); changed(); } });
    fill(settings,
      h("label", { class: "field" }, h("span", { text: t("ui.editor.turn") }), turn),
      h("label", { class: "field" }, h("span", { text: t("ui.editor.start_from") }), start),
      h("div", { class: "row link-row" }, sfen, load));
  }

  function renderVerdict() {
    if (!verdict) { fill(problems); return; }
    const items = verdict.problems.map((p) => h("li", { dataset: { code: p.code }, text: problemText(p) }));
    for (const side of ["b", "w"]) {
      if (!verdict.kings[side]) items.push(h("li", { dataset: { code: "no_king" }, text: t("ui.editor.problem.no_king", { side: sideLabel(side) }) }));
    }
    if (verdict.over) items.push(h("li", { dataset: { code: "over" }, text: t("ui.editor.problem.over") }));
    fill(problems, items.length
      ? [h("h2", { class: "card-title", text: t("ui.editor.problems_title") }), h("ul", {}, items)]
      : h("p", { class: "good", id: "editor-ok", text: t("ui.editor.problems_none") }));
    const playable = verdict.playable;
    const sound = !verdict.problems.length;
    const start = (mode) => {
      sessionStorage.setItem(SETUP_KEY, JSON.stringify({ sfen: verdict.sfen, moves: [], mode, position: verdict.sfen }));
      location.assign("/");
    };
    fill(actions,
      h("button", { type: "button", class: "btn primary", id: "editor-play-computer", disabled: !playable, text: t("ui.record.vs_computer"), onclick: () => start("computer") }),
      h("button", { type: "button", class: "btn", id: "editor-play-friend", disabled: !playable, text: t("ui.record.vs_friend"), onclick: () => start("friend") }),
      h("button", { type: "button", class: "btn", id: "editor-play-local", disabled: !playable, text: t("ui.play.local"), onclick: () => start("local") }),
      h("button", { type: "button", class: "btn", id: "editor-solve", disabled: !sound, text: t("ui.editor.solve"), onclick: solve }),
      h("button", { type: "button", class: "btn ghost", id: "editor-copy-sfen", text: t("ui.editor.copy_sfen"),
        onclick: async () => toast(t((await copyText(verdict.sfen)) ? "ui.editor.sfen_copied" : "ui.game.copy_failed")) }),
      h("button", { type: "button", class: "btn ghost", id: "editor-copy-link", text: t("ui.editor.copy_link"),
        onclick: async () => toast(t((await copyText(shareLink())) ? "ui.game.copied" : "ui.game.copy_failed")) }));
  }

  function shareLink() {
    return `${location.origin}/editor?sfen=${encodeURIComponent(makeSfen(model))}`;
  }

  function renderSolution() {
    if (!solution) { fill(solved); return; }
    if (solution.status !== "mate") {
      fill(solved, h("p", { id: "editor-solve-result", text: t(solution.status === "timeout" ? "ui.editor.solve_timeout" : "ui.editor.solve_none") }));
      return;
    }
    fill(solved,
      h("p", { id: "editor-solve-result", text: t("ui.editor.solve_mate", { n: solution.length }) }),
      // Each step's number beside its move: a flex list would draw its markers over the moves.
      h("ol", { class: "editor-line" }, solution.steps.map((step, index) => h("li", { class: "solution-step" },
        h("span", { class: "step-number", text: `${index + 1}.` }),
        h("button", { type: "button", class: "chip", text: moveText(step), onclick: () => board.setPosition({ sfen: step.sfen, lastMove: step.usi }) })))));
  }

  async function solve() {
    fill(solved, h("p", { class: "muted", text: t("ui.editor.solving") }));
    try {
      solution = await postJson("/api/positions/solve", { sfen: makeSfen(model), defender_hand: true });
    } catch (error) {
      solution = null;
      fill(solved, h("p", { class: "bad", text: errorText(error.code, error.message) }));
      return;
    }
    renderSolution();
  }

  async function changed() {
    solution = null;
    renderSolution();
    const sfen = makeSfen(model);
    board.setPosition({ sfen });
    renderHands();
    renderSettings();
    history.replaceState(null, "", `/editor?sfen=${encodeURIComponent(sfen)}`);
    const serial = ++checkSerial;
    try {
      const answer = await postJson("/api/positions/check", { sfen });
      if (serial !== checkSerial) return; // a later change is on its way
      verdict = answer;
    } catch (error) {
      verdict = null;
      fill(problems, h("p", { class: "bad", text: errorText(error.code, error.message) }));
      return;
    }
    renderVerdict();
  }

  renderBox();
  await changed();
  onLanguageChange((language) => { board.setLanguage(language); renderBox(); renderHands(); renderSettings(); renderVerdict(); renderSolution(); });
  onNotationChange(() => renderSolution());
}
