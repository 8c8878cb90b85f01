// shogiban board: a reusable, rule-free shogi board for the browser (an ES module).
//
// The board draws a position (SVG, kanji pieces, gote's pieces upside down, both hands) and turns
// clicks and drags into USI moves.  It knows NO game rules: which pieces may move where, and
// whether a promotion is forced, optional or impossible, comes from the caller (the server), as in
// shogiground.
//
//   import { createBoard } from "/static/js/board.js";
//   const board = createBoard(element, {
//     flipped: false,          // true: gote's view (9a at the bottom right)
//     interactive: true,       // false: a picture only (record viewer, spectators)
//     language: "ja",          // "ja" | "zh-Hant" | "zh-Hans" | "en": rank labels 一..九 or a..i
//                              // (the pieces' characters follow the page's catalogue: 銀, 银)
//     coordinates: true,       // draw the file and rank labels
//     animation: true,         // slide the piece of a new lastMove into place
//     onMove(usi) {},          // the user made a move: "7g7f", "8h2b+", "2c2b" (declined), "P*5e"
//     onSelect(square) {},     // any square clicked: "7g", or a hand piece: "P*" (the side to move)
//   });
//   board.setPosition({
//     sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
//     lastMove: "7g7f",        // USI of the move that led here (highlighted), or null
//     dests: {"7g": ["7f"], "2c": ["2b+", "2b"], "3d": ["3c+"]},
//     dropDests: {"P": ["5e", "5f"]},   // upper-case piece letter of the side to move's hand
//     check: false,            // true: the side to move is in check (its king is marked)
//     highlights: ["5e"],      // extra marked squares
//     arrows: [["7g", "7f"], ["P", "5e"]],  // hint arrows; a piece letter as origin = a drop
//     turn: "b",               // "b" | "w"; defaults to the SFEN's side to move
//   });
//   board.setFlipped(true);
//   board.destroy();
//
// Destinations and promotion (the contract with the server):
//   * `dests[from]` lists the legal targets of the piece on `from`.  A target written "2b+"
//     is a promoting move, "2b" a non-promoting one.
//   * Both "2b+" and "2b" listed: promotion is optional, the board asks (成 / 不成, from the
//     catalogue's ui.board.promote / ui.board.unpromote).
//   * Only "2b+" listed: promotion is forced, the board sends "…2b+" without asking.
//   * Only "2b" listed: the piece cannot promote there, the board sends "…2b".
//   * `dropDests[letter]` lists where a hand piece may be dropped; only the side to move's hand
//     pieces with an entry can be picked.  Omitted or empty maps mean nothing can move.
// After onMove the board shows the move at once (the moved piece on its target); the caller is
// expected to answer with setPosition (the server's new position, or the old one on refusal).
//
// Input: click a piece then a target (click-click), or drag it; hand pieces the same way.  Clicking
// the selected piece again, or an empty non-target square, deselects.  Escape cancels.
//
// Keyboard and screen readers (every board, in the spirit of lishogi's blind mode): the board is
// one focusable element.  Arrow keys move a cursor over the squares (as seen, flipped or not),
// Enter or Space picks and places, Tab reaches the hand pieces (Enter picks one, the cursor then
// places it); the promotion choice takes the arrow keys and Enter, or "+" / "=".  A polite live
// region says the square under the cursor, its piece and owner, and on request "b" the whole
// board, "h" both hands, "l" the last move, in the interface's language.

import { currentLanguage, pieceGlyph, pieceName, sideLabel, squareLabel, t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const FILES = "987654321";
const RANKS = "abcdefghi";
const KANJI_RANKS = "一二三四五六七八九";
const CELL_W = 100;
const CELL_H = 108;
const LEFT = 16;
const TOP = 44;
const RIGHT = 48;
const BOTTOM = 16;
const WIDTH = LEFT + 9 * CELL_W + RIGHT;
const HEIGHT = TOP + 9 * CELL_H + BOTTOM;
const HAND_ORDER = ["R", "B", "G", "S", "N", "L", "P"];

// Real sets have pieces of different sizes: the king is the largest, the pawn the smallest.
const SCALE = { K: 1.0, R: 0.97, B: 0.97, G: 0.94, S: 0.94, N: 0.91, L: 0.89, P: 0.86 };

/** Square name ("7g") of an SFEN-order index (0 = 9a, 80 = 1i). */
export function squareName(index) {
  return FILES[index % 9] + RANKS[Math.floor(index / 9)];
}

/** SFEN-order index of a square name, or -1. */
export function squareIndex(name) {
  if (typeof name !== "string" || name.length !== 2) return -1;
  const col = FILES.indexOf(name[0]);
  const row = RANKS.indexOf(name[1]);
  return col < 0 || row < 0 ? -1 : row * 9 + col;
}

/**
 * Parse an SFEN for display: {board: Array(81) of {type: "P"|"+P"|..., color: "b"|"w"}|null,
 * hands: {b: {R: n, ...}, w: {...}}, turn: "b"|"w", moveNumber}.  Throws on malformed text.
 */
export function parseSfen(sfen) {
  const parts = String(sfen).trim().split(/\s+/);
  const rows = parts[0].split("/");
  if (rows.length !== 9) throw new Error(`bad sfen: ${sfen}`);
  const board = [];
  for (const row of rows) {
    let promoted = false;
    let count = 0;
    for (const ch of row) {
      if (ch === "+") { promoted = true; continue; }
      if (ch >= "1" && ch <= "9") {
        for (let i = 0; i < Number(ch); i++) board.push(null);
        count += Number(ch);
      } else {
        const upper = ch.toUpperCase();
        if (!("PLNSGBRK".includes(upper))) throw new Error(`bad sfen piece: ${ch}`);
        board.push({ type: (promoted ? "+" : "") + upper, color: ch === upper ? "b" : "w" });
        count += 1;
      }
      promoted = false;
    }
    if (count !== 9) throw new Error(`bad sfen row: ${row}`);
  }
  const hands = { b: {}, w: {} };
  const handText = parts[2] || "-";
  if (handText !== "-") {
    let n = "";
    for (const ch of handText) {
      if (ch >= "0" && ch <= "9") { n += ch; continue; }
      const upper = ch.toUpperCase();
      const side = ch === upper ? "b" : "w";
      hands[side][upper] = (hands[side][upper] || 0) + (n ? Number(n) : 1);
      n = "";
    }
  }
  return { board, hands, turn: parts[1] === "w" ? "w" : "b", moveNumber: Number(parts[3] || 1) };
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

/** Pentagon outline of a piece centred on (0, 0) at scale s. */
function piecePath(s) {
  const w = CELL_W * 0.84 * s;
  const h = CELL_H * 0.9 * s;
  const top = -h / 2;
  const shoulder = -h * 0.3;
  const bottom = h / 2;
  return `M0 ${top} L${w * 0.39} ${shoulder} L${w / 2} ${bottom} L${-w / 2} ${bottom} L${-w * 0.39} ${shoulder} Z`;
}

/**
 * An SVG group drawing one piece centred on (0, 0); `upsideDown` turns it 180 degrees.
 * Exported so pages can draw pieces elsewhere (legends, lessons).
 */
export function drawPiece(type, color, upsideDown, parent = null) {
  const base = type.replace("+", "");
  const s = SCALE[base] || 0.9;
  const g = el("g", { class: `sb-piece sb-${color === "b" ? "sente" : "gote"}${type[0] === "+" ? " sb-promoted" : ""}` }, parent);
  const inner = el("g", upsideDown ? { transform: "rotate(180)" } : {}, g);
  el("path", { d: piecePath(s), class: "sb-piece-body" }, inner);
  // The characters come from the catalogue (piece.glyph.*): 銀 on a Japanese board, 银 on a
  // simplified Chinese one, as the terminal draws them.
  const text = el("text", {
    class: "sb-piece-text", x: 0, y: CELL_H * 0.06 * s, "text-anchor": "middle", "dominant-baseline": "middle",
    "font-size": 54 * s, lang: currentLanguage() === "en" ? "ja" : currentLanguage(),
  }, inner);
  text.textContent = pieceGlyph(type, color);
  return g;
}

function defaultLanguageLabels(language) {
  return language === "en" ? RANKS.split("") : KANJI_RANKS.split("");
}

/**
 * Create a board inside `element` (emptied first).  See the header of this file for the options
 * and the object returned.
 */
export function createBoard(element, options = {}) {
  const opts = {
    flipped: false, interactive: true, language: "ja", coordinates: true, animation: true,
    onMove: null, onSelect: null, ...options,
  };
  let position = { board: Array(81).fill(null), hands: { b: {}, w: {} }, turn: "b" };
  let view = { lastMove: null, dests: {}, dropDests: {}, check: false, highlights: [], arrows: [], turn: "b" };
  let selected = null; // {kind: "square", index} | {kind: "hand", letter}
  let drag = null; // pointer drag in progress
  let promotion = null; // {from, to, choices} while the chooser is open
  let destroyed = false;
  let cursor = 40; // the keyboard cursor's square (5e)
  let promoChoice = 0; // 0: promote, 1: do not, while the chooser is open
  let lastPlayed = null; // the last move this board sent, for the keyboard's announcement

  element.replaceChildren();
  element.classList.add("sb-board");
  const root = document.createElement("div");
  root.className = "sb-board-layout";
  element.appendChild(root);
  const topHand = document.createElement("div");
  const bottomHand = document.createElement("div");
  topHand.className = "sb-hand sb-hand-top";
  bottomHand.className = "sb-hand sb-hand-bottom";
  const main = document.createElement("div");
  main.className = "sb-board-main";
  main.tabIndex = 0;
  main.setAttribute("role", "application");
  const live = document.createElement("div");
  live.className = "sb-live visually-hidden";
  live.setAttribute("aria-live", "polite");
  live.setAttribute("role", "status");
  root.append(topHand, main, bottomHand, live);

  // The picture is for the eyes; what a screen reader reads is the grid of cells below, one per
  // square, each named by its square, piece and owner ("7g, Sente pawn"), in the page's language.
  const svg = el("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "sb-svg", role: "grid" });
  main.appendChild(svg);
  const boardId = `sb-${Math.random().toString(36).slice(2)}`;
  const defs = el("defs", { "aria-hidden": "true" }, svg);
  const grad = el("radialGradient", { id: `sb-check-${Math.random().toString(36).slice(2)}` }, defs);
  el("stop", { offset: "0%", "stop-color": "#ff2a1a", "stop-opacity": "0.95" }, grad);
  el("stop", { offset: "60%", "stop-color": "#e0301e", "stop-opacity": "0.45" }, grad);
  el("stop", { offset: "100%", "stop-color": "#e0301e", "stop-opacity": "0" }, grad);
  const markerId = `sb-arrowhead-${Math.random().toString(36).slice(2)}`;
  const marker = el("marker", {
    id: markerId, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: "auto",
  }, defs);
  el("path", { d: "M0 0 L10 5 L0 10 z", class: "sb-arrowhead" }, marker);

  const hidden = { "aria-hidden": "true" };
  el("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "sb-frame", rx: 10, ...hidden }, svg);
  el("rect", { x: LEFT, y: TOP, width: 9 * CELL_W, height: 9 * CELL_H, class: "sb-wood", ...hidden }, svg);
  const squaresLayer = el("g", { class: "sb-squares", ...hidden }, svg);
  const gridLayer = el("g", { class: "sb-grid", ...hidden }, svg);
  const coordLayer = el("g", { class: "sb-coords", ...hidden }, svg);
  const piecesLayer = el("g", { class: "sb-pieces", ...hidden }, svg);
  const destsLayer = el("g", { class: "sb-dests", ...hidden }, svg);
  const arrowsLayer = el("g", { class: "sb-arrows", ...hidden }, svg);
  const cursorLayer = el("g", { class: "sb-cursor-layer", ...hidden }, svg);
  const overlayLayer = el("g", { class: "sb-overlay", ...hidden }, svg);
  // The text alternative: nine rows of nine cells as the board is seen (placed by placeCells).
  const cellsLayer = el("g", { class: "sb-cells" }, svg);
  const rows = [];
  const cells = [];
  for (let row = 0; row < 9; row++) rows.push(el("g", { role: "row" }, cellsLayer));
  for (let index = 0; index < 81; index++) {
    cells.push(el("rect", {
      role: "gridcell", id: `${boardId}-${squareName(index)}`,
      width: CELL_W, height: CELL_H, class: "sb-cell",
    }));
  }

  for (let i = 0; i <= 9; i++) {
    el("line", { x1: LEFT + i * CELL_W, y1: TOP, x2: LEFT + i * CELL_W, y2: TOP + 9 * CELL_H }, gridLayer);
    el("line", { x1: LEFT, y1: TOP + i * CELL_H, x2: LEFT + 9 * CELL_W, y2: TOP + i * CELL_H }, gridLayer);
  }
  for (const [gx, gy] of [[3, 3], [6, 3], [3, 6], [6, 6]]) {
    el("circle", { cx: LEFT + gx * CELL_W, cy: TOP + gy * CELL_H, r: 7, class: "sb-star" }, gridLayer);
  }

  function cellXY(index) {
    let col = index % 9;
    let row = Math.floor(index / 9);
    if (opts.flipped) { col = 8 - col; row = 8 - row; }
    return [LEFT + col * CELL_W, TOP + row * CELL_H];
  }

  function centre(index) {
    const [x, y] = cellXY(index);
    return [x + CELL_W / 2, y + CELL_H / 2];
  }

  /** Board index under a client point, or -1. */
  function indexAt(clientX, clientY) {
    const rect = svg.getBoundingClientRect();
    if (!rect.width) return -1;
    const x = (clientX - rect.left) * (WIDTH / rect.width) - LEFT;
    const y = (clientY - rect.top) * (HEIGHT / rect.height) - TOP;
    if (x < 0 || y < 0 || x >= 9 * CELL_W || y >= 9 * CELL_H) return -1;
    let col = Math.floor(x / CELL_W);
    let row = Math.floor(y / CELL_H);
    if (opts.flipped) { col = 8 - col; row = 8 - row; }
    return row * 9 + col;
  }

  /** Put each square's cell in its row, in the order the board is seen (flipped or not). */
  function placeCells() {
    for (let index = 0; index < 81; index++) {
      const [x, y] = cellXY(index);
      const cell = cells[index];
      cell.setAttribute("x", x);
      cell.setAttribute("y", y);
    }
    for (let row = 0; row < 9; row++) {
      const shown = [];
      for (let col = 0; col < 9; col++) shown.push(opts.flipped ? (8 - row) * 9 + (8 - col) : row * 9 + col);
      rows[row].replaceChildren(...shown.map((index) => cells[index]));
    }
  }

  /** The words of the board's own labels, in the page's language (again after a change). */
  function labelBoard() {
    main.setAttribute("aria-roledescription", t("ui.board.role"));
    main.setAttribute("aria-label", t("ui.board.keys"));
    svg.setAttribute("aria-label", t("ui.board.role"));
  }

  function labelCells() {
    position.board.forEach((piece, index) => {
      cells[index].setAttribute("aria-label", squareWords(index));
      if (selected && selected.kind === "square" && selected.index === index) cells[index].setAttribute("aria-selected", "true");
      else cells[index].removeAttribute("aria-selected");
    });
  }

  function drawCoordinates() {
    coordLayer.replaceChildren();
    if (!opts.coordinates) return;
    const ranks = defaultLanguageLabels(opts.language);
    for (let i = 0; i < 9; i++) {
      const file = opts.flipped ? 1 + i : 9 - i;
      const t = el("text", { x: LEFT + i * CELL_W + CELL_W / 2, y: TOP - 14, "text-anchor": "middle" }, coordLayer);
      t.textContent = String(file);
      const rank = opts.flipped ? 8 - i : i;
      const r = el("text", {
        x: LEFT + 9 * CELL_W + RIGHT / 2, y: TOP + i * CELL_H + CELL_H / 2, "text-anchor": "middle",
        "dominant-baseline": "middle", lang: "ja",
      }, coordLayer);
      r.textContent = ranks[rank];
    }
  }

  // -- what may move ------------------------------------------------------------------------

  function targetsOf(sel) {
    if (!sel) return [];
    if (sel.kind === "square") return view.dests[squareName(sel.index)] || [];
    return view.dropDests[sel.letter] || [];
  }

  function canPickSquare(index) {
    return opts.interactive && (view.dests[squareName(index)] || []).length > 0;
  }

  function canPickHand(letter) {
    return opts.interactive && (view.dropDests[letter] || []).length > 0;
  }

  /** The choices ("2b+", "2b") for moving the selection to square index, or []. */
  function choicesFor(sel, index) {
    const name = squareName(index);
    return targetsOf(sel).filter((t) => t.slice(0, 2) === name);
  }

  // -- drawing ------------------------------------------------------------------------------

  function lastMoveSquares() {
    const usi = view.lastMove;
    if (!usi || typeof usi !== "string") return [];
    const to = squareIndex(usi.slice(2, 4));
    if (usi[1] === "*") return to >= 0 ? [to] : [];
    const from = squareIndex(usi.slice(0, 2));
    return [from, to].filter((i) => i >= 0);
  }

  function kingInCheck() {
    if (!view.check) return -1;
    return position.board.findIndex((p) => p && p.type === "K" && p.color === view.turn);
  }

  function drawSquares() {
    squaresLayer.replaceChildren();
    const mark = (index, cls) => {
      const [x, y] = cellXY(index);
      el("rect", { x, y, width: CELL_W, height: CELL_H, class: cls }, squaresLayer);
    };
    for (const i of lastMoveSquares()) mark(i, "sb-last");
    for (const name of view.highlights || []) {
      const i = squareIndex(name);
      if (i >= 0) mark(i, "sb-highlight");
    }
    if (selected && selected.kind === "square") mark(selected.index, "sb-selected");
    const king = kingInCheck();
    if (king >= 0) {
      mark(king, "sb-check-square");
      const [cx, cy] = centre(king);
      el("circle", { cx, cy, r: CELL_W * 0.62, fill: `url(#${grad.id})`, class: "sb-check" }, squaresLayer);
    }
  }

  function drawPieces(skipIndex = -1) {
    piecesLayer.replaceChildren();
    position.board.forEach((piece, index) => {
      if (!piece || index === skipIndex) return;
      const [cx, cy] = centre(index);
      const upside = (piece.color === "w") !== opts.flipped;
      const g = drawPiece(piece.type, piece.color, upside, piecesLayer);
      g.setAttribute("transform", `translate(${cx} ${cy})`);
      g.dataset.square = squareName(index);
      if (canPickSquare(index)) g.classList.add("sb-movable");
      if (drag && drag.active && drag.from.kind === "square" && drag.from.index === index) g.classList.add("sb-ghosted");
    });
  }

  function drawDests() {
    destsLayer.replaceChildren();
    if (!selected) return;
    const seen = new Set();
    for (const target of targetsOf(selected)) {
      const index = squareIndex(target.slice(0, 2));
      if (index < 0 || seen.has(index)) continue;
      seen.add(index);
      const [cx, cy] = centre(index);
      if (position.board[index]) {
        el("circle", { cx, cy, r: CELL_W * 0.46, class: "sb-dest-capture" }, destsLayer);
      } else {
        el("circle", { cx, cy, r: CELL_W * 0.14, class: "sb-dest" }, destsLayer);
      }
      const [x, y] = cellXY(index);
      const hit = el("rect", { x, y, width: CELL_W, height: CELL_H, class: "sb-dest-hit" }, destsLayer);
      hit.dataset.square = squareName(index);
      if (drag && drag.active && drag.over === index) hit.classList.add("sb-dest-over");
    }
  }

  function drawArrows() {
    arrowsLayer.replaceChildren();
    for (const arrow of view.arrows || []) {
      if (!Array.isArray(arrow) || arrow.length < 2) continue;
      const to = squareIndex(arrow[1]);
      if (to < 0) continue;
      const [tx, ty] = centre(to);
      const from = squareIndex(arrow[0]);
      if (from < 0) {
        // A drop hint: a ring on the target with the piece's kanji.
        el("circle", { cx: tx, cy: ty, r: CELL_W * 0.44, class: "sb-arrow-ring" }, arrowsLayer);
        const letter = String(arrow[0]).replace("*", "").toUpperCase();
        if (pieceGlyph(letter) !== "?") {
          const label = el("text", { x: tx, y: ty - CELL_H * 0.5, class: "sb-arrow-label", "text-anchor": "middle", lang: "ja" }, arrowsLayer);
          label.textContent = pieceGlyph(letter);
        }
        continue;
      }
      const [fx, fy] = centre(from);
      const len = Math.hypot(tx - fx, ty - fy) || 1;
      const shorten = 22;
      el("line", {
        x1: fx, y1: fy, x2: tx - ((tx - fx) / len) * shorten, y2: ty - ((ty - fy) / len) * shorten,
        class: "sb-arrow", "marker-end": `url(#${markerId})`,
      }, arrowsLayer);
    }
  }

  function drawHand(container, color) {
    container.replaceChildren();
    container.dataset.color = color;
    container.setAttribute("role", "group");
    container.setAttribute("aria-label", `${sideLabel(color)} ${t("ui.board.hand")}`);
    const upside = (color === "w") !== opts.flipped;
    const hand = position.hands[color] || {};
    const isTurn = color === view.turn;
    for (const letter of HAND_ORDER) {
      const count = hand[letter] || 0;
      if (!count) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sb-hand-piece";
      button.dataset.piece = letter;
      button.dataset.color = color;
      const pick = isTurn && canPickHand(letter);
      if (pick) button.classList.add("sb-movable");
      else button.tabIndex = -1;
      if (selected && selected.kind === "hand" && selected.letter === letter && isTurn) button.classList.add("sb-selected");
      const small = el("svg", {
        viewBox: `${-CELL_W / 2} ${-CELL_H / 2} ${CELL_W} ${CELL_H}`, class: "sb-hand-svg", "aria-hidden": "true",
      });
      drawPiece(letter, color, upside, small);
      button.appendChild(small);
      // The button's name is its text: the piece's name (for the ear) and the count shown.
      const name = document.createElement("span");
      name.className = "visually-hidden";
      name.textContent = count > 1 ? `${pieceName(letter)} × ` : `${pieceName(letter)} × 1`;
      button.appendChild(name);
      if (count > 1) {
        const badge = document.createElement("span");
        badge.className = "sb-count";
        badge.textContent = String(count);
        button.appendChild(badge);
      }
      container.appendChild(button);
    }
  }

  function drawPromotion() {
    overlayLayer.replaceChildren();
    if (!promotion) return;
    el("rect", { x: LEFT, y: TOP, width: 9 * CELL_W, height: 9 * CELL_H, class: "sb-dim" }, overlayLayer);
    const index = promotion.to;
    const [x, y] = cellXY(index);
    // Stack the two choices towards the board's centre so both stay on the board.
    const down = y < TOP + 4.5 * CELL_H;
    const color = view.turn;
    const base = promotion.piece.type.replace("+", "");
    const upside = (color === "w") !== opts.flipped;
    [["+", `+${base}`], ["", base]].forEach(([suffix, type], k) => {
      const yy = down ? y + k * CELL_H : y - k * CELL_H;
      const g = el("g", { class: `sb-promo-choice${k === promoChoice ? " sb-promo-focus" : ""}`, "data-choice": suffix || "=" }, overlayLayer);
      el("rect", { x: x + 3, y: yy + 3, width: CELL_W - 6, height: CELL_H - 6, rx: 12, class: "sb-promo-bg" }, g);
      const p = drawPiece(type, color, upside, g);
      p.setAttribute("transform", `translate(${x + CELL_W / 2} ${yy + CELL_H / 2})`);
      const label = el("text", {
        x: x + CELL_W - 8, y: yy + CELL_H - 8, class: "sb-promo-label", "text-anchor": "end", lang: "ja",
      }, g);
      label.textContent = t(suffix ? "ui.board.promote" : "ui.board.unpromote");
    });
  }

  function drawCursor() {
    cursorLayer.replaceChildren();
    main.setAttribute("aria-activedescendant", cells[cursor].id);
    if (!element.classList.contains("sb-focused")) return;
    const [x, y] = cellXY(cursor);
    el("rect", { x: x + 4, y: y + 4, width: CELL_W - 8, height: CELL_H - 8, rx: 8, class: "sb-cursor" }, cursorLayer);
  }

  function redraw() {
    if (destroyed) return;
    drawSquares();
    drawPieces();
    drawDests();
    drawArrows();
    const topColor = opts.flipped ? "b" : "w";
    drawHand(topHand, topColor);
    drawHand(bottomHand, topColor === "b" ? "w" : "b");
    drawPromotion();
    drawCursor();
    labelCells();
    element.classList.toggle("sb-flipped", !!opts.flipped);
    element.classList.toggle("sb-interactive", !!opts.interactive);
  }

  // -- animation ----------------------------------------------------------------------------

  function animateLastMove() {
    const usi = view.lastMove;
    if (!opts.animation || !usi || usi[1] === "*") return;
    const from = squareIndex(usi.slice(0, 2));
    const to = squareIndex(usi.slice(2, 4));
    const node = piecesLayer.querySelector(`[data-square="${squareName(to)}"]`);
    if (from < 0 || !node || typeof node.animate !== "function") return;
    const [fx, fy] = centre(from);
    const [tx, ty] = centre(to);
    const rect = svg.getBoundingClientRect();
    const k = rect.width ? rect.width / WIDTH : 1;
    // The group carries an SVG transform; animate the CSS translate on top of it.
    node.animate(
      [{ translate: `${(fx - tx) * k}px ${(fy - ty) * k}px` }, { translate: "0px 0px" }],
      { duration: 160, easing: "ease-out" },
    );
  }

  // -- moving -------------------------------------------------------------------------------

  function clearSelection() {
    selected = null;
    promotion = null;
  }

  function localApply(sel, index, usi) {
    // Show the move at once; the caller answers with the real position.
    const board = position.board.slice();
    const hands = { b: { ...position.hands.b }, w: { ...position.hands.w } };
    if (sel.kind === "hand") {
      const color = view.turn;
      hands[color][sel.letter] = Math.max(0, (hands[color][sel.letter] || 0) - 1);
      board[index] = { type: sel.letter, color };
    } else {
      const piece = board[sel.index];
      board[sel.index] = null;
      board[index] = piece && usi.endsWith("+") ? { ...piece, type: `+${piece.type.replace("+", "")}` } : piece;
    }
    position = { ...position, board, hands };
    view = { ...view, lastMove: usi, dests: {}, dropDests: {}, check: false, arrows: [] };
  }

  function play(sel, index, choice) {
    const usi = sel.kind === "hand"
      ? `${sel.letter}*${squareName(index)}`
      : `${squareName(sel.index)}${choice}`;
    lastPlayed = usi;
    clearSelection();
    localApply(sel, index, usi);
    redraw();
    if (typeof opts.onMove === "function") opts.onMove(usi);
  }

  /** Try to move the selection to index; true when the square was a target. */
  function tryMove(sel, index) {
    const choices = choicesFor(sel, index);
    if (!choices.length) return false;
    if (sel.kind === "hand") {
      play(sel, index, "");
      return true;
    }
    const withPromo = choices.find((c) => c.endsWith("+"));
    const without = choices.find((c) => !c.endsWith("+"));
    if (withPromo && without) {
      selected = sel;
      promotion = { from: sel.index, to: index, piece: position.board[sel.index], sel };
      redraw();
      return true;
    }
    play(sel, index, withPromo || without);
    return true;
  }

  function notifySelect(name) {
    if (typeof opts.onSelect === "function") opts.onSelect(name);
  }

  function clickSquare(index) {
    notifySelect(squareName(index));
    if (!opts.interactive) return;
    if (promotion) return;
    if (selected && tryMove(selected, index)) return;
    if (selected && selected.kind === "square" && selected.index === index) {
      clearSelection();
    } else if (canPickSquare(index)) {
      selected = { kind: "square", index };
    } else {
      clearSelection();
    }
    redraw();
  }

  function clickHand(letter, color) {
    notifySelect(`${letter}*`);
    if (!opts.interactive || promotion) return;
    if (color !== view.turn || !canPickHand(letter)) { clearSelection(); redraw(); return; }
    if (selected && selected.kind === "hand" && selected.letter === letter) clearSelection();
    else selected = { kind: "hand", letter };
    redraw();
  }

  // -- pointer input ------------------------------------------------------------------------

  function makeGhost(sel, clientX, clientY) {
    const rect = svg.getBoundingClientRect();
    const k = rect.width / WIDTH;
    const ghost = document.createElement("div");
    ghost.className = "sb-ghost";
    ghost.style.width = `${CELL_W * k * 1.1}px`;
    ghost.style.height = `${CELL_H * k * 1.1}px`;
    const small = el("svg", { viewBox: `${-CELL_W / 2} ${-CELL_H / 2} ${CELL_W} ${CELL_H}` });
    const piece = sel.kind === "square" ? position.board[sel.index] : { type: sel.letter, color: view.turn };
    drawPiece(piece.type, piece.color, (piece.color === "w") !== opts.flipped, small);
    ghost.appendChild(small);
    document.body.appendChild(ghost);
    moveGhost(ghost, clientX, clientY);
    return ghost;
  }

  function moveGhost(ghost, clientX, clientY) {
    ghost.style.transform = `translate(${clientX - ghost.offsetWidth / 2}px, ${clientY - ghost.offsetHeight / 2}px)`;
  }

  function onPointerDown(event) {
    if (!opts.interactive || event.button > 0) return;
    if (promotion) {
      const choice = event.target.closest && event.target.closest(".sb-promo-choice");
      const pending = promotion;
      if (choice) {
        const suffix = choice.getAttribute("data-choice") === "+" ? "+" : "";
        const targets = choicesFor(pending.sel, pending.to);
        const usi = targets.find((t) => (suffix ? t.endsWith("+") : !t.endsWith("+")));
        if (usi) play(pending.sel, pending.to, usi);
      } else {
        clearSelection();
        redraw();
      }
      event.preventDefault();
      return;
    }
    const handButton = event.target.closest && event.target.closest(".sb-hand-piece");
    let from = null;
    if (handButton) {
      const letter = handButton.dataset.piece;
      const color = handButton.dataset.color;
      if (color === view.turn && canPickHand(letter)) from = { kind: "hand", letter };
      else { clickHand(letter, color); return; }
    } else {
      const index = indexAt(event.clientX, event.clientY);
      if (index < 0) return;
      if (selected && choicesFor(selected, index).length) {
        event.preventDefault();
        clickSquare(index);
        return;
      }
      if (canPickSquare(index)) from = { kind: "square", index };
      else { clickSquare(index); return; }
    }
    event.preventDefault();
    const wasSelected = selected && from.kind === selected.kind &&
      (from.kind === "square" ? from.index === selected.index : from.letter === selected.letter);
    selected = from;
    drag = { from, startX: event.clientX, startY: event.clientY, active: false, over: -1, ghost: null, wasSelected, pointerId: event.pointerId };
    redraw();
    window.addEventListener("pointermove", onPointerMove);
    window.addEventListener("pointerup", onPointerUp);
    window.addEventListener("pointercancel", onPointerCancel);
  }

  function onPointerMove(event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    if (!drag.active) {
      if (Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < 6) return;
      drag.active = true;
      drag.ghost = makeGhost(drag.from, event.clientX, event.clientY);
      redraw();
    }
    moveGhost(drag.ghost, event.clientX, event.clientY);
    const over = indexAt(event.clientX, event.clientY);
    if (over !== drag.over) {
      drag.over = over;
      drawDests();
    }
  }

  function endDrag() {
    window.removeEventListener("pointermove", onPointerMove);
    window.removeEventListener("pointerup", onPointerUp);
    window.removeEventListener("pointercancel", onPointerCancel);
    if (drag && drag.ghost) drag.ghost.remove();
    const finished = drag;
    drag = null;
    return finished;
  }

  function onPointerUp(event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const finished = endDrag();
    const index = indexAt(event.clientX, event.clientY);
    if (finished.active) {
      if (index >= 0 && tryMove(finished.from, index)) return;
      // Dropped off target: keep the piece selected so a click can finish the move.
      redraw();
      return;
    }
    // A click on a piece: the second click on the selected piece deselects it.
    if (finished.from.kind === "square") notifySelect(squareName(finished.from.index));
    else notifySelect(`${finished.from.letter}*`);
    if (finished.wasSelected) clearSelection();
    redraw();
  }

  function onPointerCancel() {
    endDrag();
    redraw();
  }

  function onKeyDown(event) {
    if (event.key === "Escape" && (selected || promotion)) {
      clearSelection();
      redraw();
      say(t("ui.board.cancelled"));
    }
  }

  // -- keyboard and screen readers ---------------------------------------------------------

  function say(text) {
    // Re-setting the same text is not announced again: clear it first.
    live.textContent = "";
    requestAnimationFrame(() => { live.textContent = text; });
  }

  function pieceWords(piece) {
    return `${sideLabel(piece.color)} ${pieceName(piece.type)}`;
  }

  /** A square, its piece and the piece's owner: "7g, Sente pawn", "５五, 空き". */
  function squareWords(index) {
    const piece = position.board[index];
    return `${squareLabel(squareName(index))}, ${piece ? pieceWords(piece) : t("ui.board.empty")}`;
  }

  function describeSquare(index) {
    const parts = [squareWords(index)];
    if (selected && targetsOf(selected).some((target) => target.slice(0, 2) === squareName(index))) {
      parts.push(t("ui.board.can_go"));
    }
    return parts.join(", ");
  }

  function describeBoard() {
    const lines = [];
    for (const color of ["b", "w"]) {
      const pieces = [];
      position.board.forEach((piece, index) => {
        if (piece && piece.color === color) pieces.push(`${pieceName(piece.type)} ${squareLabel(squareName(index))}`);
      });
      lines.push(`${sideLabel(color)}: ${pieces.join(", ") || t("ui.board.nothing")}`);
    }
    return lines.join(". ");
  }

  function describeHands() {
    return ["b", "w"].map((color) => {
      const hand = position.hands[color] || {};
      const pieces = HAND_ORDER.filter((letter) => hand[letter]).map((letter) => `${pieceName(letter)} ${hand[letter]}`);
      return `${sideLabel(color)} ${t("ui.board.hand")}: ${pieces.join(", ") || t("ui.board.nothing")}`;
    }).join(". ");
  }

  function describeLastMove() {
    const usi = view.lastMove;
    if (!usi) return t("ui.board.no_last_move");
    const to = squareIndex(usi.slice(2, 4));
    const piece = to >= 0 ? position.board[to] : null;
    const from = usi[1] === "*" ? t("ui.board.dropped") : squareLabel(usi.slice(0, 2));
    return `${t("ui.board.last_move")}: ${piece ? pieceWords(piece) : ""} ${from} → ${squareLabel(usi.slice(2, 4))}`.replace("  ", " ");
  }

  /** Move the cursor by (dx, dy) as the board is seen. */
  function moveCursor(dx, dy) {
    let col = cursor % 9;
    let row = Math.floor(cursor / 9);
    const sign = opts.flipped ? -1 : 1;
    col = Math.min(8, Math.max(0, col + dx * sign));
    row = Math.min(8, Math.max(0, row + dy * sign));
    cursor = row * 9 + col;
    drawCursor();
    say(describeSquare(cursor));
  }

  function confirmPromotion(choice) {
    const pending = promotion;
    const targets = choicesFor(pending.sel, pending.to);
    const usi = targets.find((target) => (choice === 0 ? target.endsWith("+") : !target.endsWith("+")));
    if (!usi) return;
    play(pending.sel, pending.to, usi);
    say(`${t("ui.board.moved")}: ${describeSquare(pending.to)}`);
  }

  function onBoardKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (promotion) {
      if (arrows[event.key]) {
        promoChoice = 1 - promoChoice;
        drawPromotion();
        say(t(promoChoice === 0 ? "ui.board.promote_choice" : "ui.board.unpromote_choice"));
      } else if (event.key === "Enter" || event.key === " ") {
        confirmPromotion(promoChoice);
      } else if (event.key === "+" || event.key === "=") {
        confirmPromotion(event.key === "+" ? 0 : 1);
      } else {
        return;
      }
      event.preventDefault();
      return;
    }
    if (arrows[event.key]) {
      moveCursor(...arrows[event.key]);
    } else if (event.key === "Enter" || event.key === " ") {
      const before = selected;
      const played = lastPlayed;
      clickSquare(cursor);
      if (promotion) {
        promoChoice = 0;
        drawPromotion();
        say(t("ui.board.promote_question"));
      } else if (lastPlayed !== played) {
        say(`${t("ui.board.moved")}: ${describeSquare(cursor)}`);
      } else if (selected && selected !== before) {
        say(`${t("ui.board.picked")}: ${describeSquare(cursor)}`);
      } else if (before && !selected) {
        say(t("ui.board.cancelled"));
      }
    } else if (event.key === "b") {
      say(describeBoard());
    } else if (event.key === "h") {
      say(describeHands());
    } else if (event.key === "l") {
      say(describeLastMove());
    } else {
      return;
    }
    event.preventDefault();
  }

  main.addEventListener("keydown", onBoardKey);
  main.addEventListener("focus", () => {
    element.classList.add("sb-focused");
    drawCursor();
    say(describeSquare(cursor));
  });
  main.addEventListener("blur", () => {
    element.classList.remove("sb-focused");
    drawCursor();
  });

  root.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("keydown", onKeyDown);
  // Keyboard users: Enter/Space on a focused hand piece picks it.
  root.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest(".sb-hand-piece");
    if (button && event.detail === 0) {
      clickHand(button.dataset.piece, button.dataset.color);
      if (selected && selected.kind === "hand") {
        main.focus();
        say(`${t("ui.board.picked")}: ${pieceName(selected.letter)}`);
      }
    }
  });

  labelBoard();
  placeCells();
  drawCoordinates();
  redraw();

  return {
    /** Show a position; see the file header for the fields. */
    setPosition(state) {
      const previousLast = view.lastMove;
      const parsed = parseSfen(state.sfen);
      position = parsed;
      view = {
        lastMove: state.lastMove || null,
        dests: state.dests || {},
        dropDests: state.dropDests || {},
        check: !!state.check,
        highlights: state.highlights || [],
        arrows: state.arrows || [],
        turn: state.turn === "w" || state.turn === "b" ? state.turn : parsed.turn,
      };
      if (drag) endDrag();
      clearSelection();
      redraw();
      if (view.lastMove && view.lastMove !== previousLast) animateLastMove();
    },
    /** Turn the board: true shows gote's side at the bottom. */
    setFlipped(flipped) {
      opts.flipped = !!flipped;
      placeCells();
      drawCoordinates();
      redraw();
    },
    /** Allow or forbid moving pieces. */
    setInteractive(interactive) {
      opts.interactive = !!interactive;
      clearSelection();
      redraw();
    },
    /** Change the language of the coordinate labels and of the pieces' characters. */
    setLanguage(language) {
      opts.language = language;
      labelBoard();
      drawCoordinates();
      redraw();
    },
    /** Replace the hint arrows only. */
    setArrows(arrows) {
      view = { ...view, arrows: arrows || [] };
      drawArrows();
    },
    /** Whether the board is shown from gote's side. */
    get flipped() { return !!opts.flipped; },
    /** Remove the board and its listeners. */
    destroy() {
      destroyed = true;
      if (drag) endDrag();
      root.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
      element.replaceChildren();
      element.classList.remove("sb-board", "sb-flipped", "sb-interactive");
    },
  };
}
