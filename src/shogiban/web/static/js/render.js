// Rendering of the game page's parts from the state (see state.js): player bars, clocks, the
// status line, the move list and the result.  Input handling lives in pages/game.js.

import { currentLanguage, t } from "./i18n.js";
import { moveText, moveTextLang } from "./notation.js";
import { clockView, isHandicap, loserOf, myColor, resultView } from "./state.js";
import { formatClock, h, sideMark, sideName, fill } from "./util.js";

/** The name shown for a seat. */
export function playerName(state, color) {
  const seat = state.game.players[color];
  const mine = myColor(state) === color;
  if (seat.kind === "engine") return t("ui.player.computer", { level: seat.level });
  if (seat.kind === "usi") return seat.name || t("ui.player.usi");
  // The bar shows the side already: an unnamed person is "Player", never the side twice.
  if (state.game.mode === "local") return seat.name || t("ui.player.unnamed");
  if (mine) return t("ui.player.you");
  if (!seat.joined) return t("ui.player.open");
  // Only a player has a "friend": a spectator sees two players.
  if (!state.you) return seat.name || t("ui.player.unnamed");
  return seat.name || t("ui.player.friend");
}

/** Fill a player bar: mark, side, name, presence, clock. */
export function renderPlayerBar(bar, state, color, now) {
  const seat = state.game.players[color];
  const toMove = state.position && state.position.turn === color && !state.outcome;
  bar.classList.toggle("to-move", !!toMove);
  bar.dataset.color = color;
  const presence = seat.kind === "human" && state.game.mode === "friend"
    ? h("span", {
      class: `presence ${seat.online ? "online" : "offline"}`,
      title: t(seat.online ? "ui.player.online" : "ui.player.offline"),
      "aria-label": t(seat.online ? "ui.player.online" : "ui.player.offline"),
    })
    : null;
  const thinking = toMove && state.thinking && seat.kind !== "human"
    ? h("span", { class: "thinking-dots", "aria-hidden": "true" }, h("i"), h("i"), h("i"))
    : null;
  fill(bar,
    h("span", { class: `side-mark side-${color}`, "aria-hidden": "true" }, sideMark(color)),
    h("span", { class: "player-text" },
      h("span", { class: "player-side", text: sideName(color, isHandicap(state)) }),
      h("span", { class: "player-name", text: playerName(state, color) })),
    presence,
    thinking,
    h("span", { class: "spacer" }),
    renderClock(state, color, now),
  );
}

/** A clock element for one side (empty when there is no clock). */
export function renderClock(state, color, now) {
  const view = clockView(state, color, now);
  if (!view.enabled) return h("span", { class: "clock clock-none" });
  const text = view.inByoyomi ? formatClock(view.byoyomi) : formatClock(view.main);
  const time = view.inByoyomi ? `${t("ui.clock.byoyomi")} ${text}` : text;
  const node = h("span", {
    class: `clock${view.running ? " running" : ""}${view.low ? " low" : ""}${view.inByoyomi ? " byoyomi" : ""}`,
    dataset: { color },
    role: "timer",
    // Whose clock it is, for the ear: "Sente's clock: 9:58".
    "aria-label": t("ui.clock.label", { side: sideName(color, isHandicap(state)), time }),
  });
  if (view.inByoyomi) node.append(h("small", { text: t("ui.clock.byoyomi") }));
  node.append(h("span", { class: "clock-time", text }));
  return node;
}

/** The status line's text and kind ("turn", "wait", "check", "over", ...). */
export function statusOf(state, connection) {
  if (connection === "gone") return { kind: "error", text: t("ui.status.gone") };
  if (!state.loaded) return { kind: "wait", text: t("ui.status.loading") };
  const handicap = isHandicap(state);
  const result = resultView(state);
  if (result) return { kind: "over", text: resultTitle(state) };
  if (state.game && state.can.join) {
    const open = state.game.players.b.joined ? "w" : "b";
    return { kind: "invite", text: t("ui.status.join", { side: sideName(open, handicap) }) };
  }
  if (state.game && Object.values(state.game.players).some((p) => p.kind === "human" && !p.joined)) {
    return { kind: "wait", text: t(state.you ? "ui.status.waiting" : "ui.status.waiting_spectator") };
  }
  if (state.takebackOffer) {
    const mine = state.you === state.takebackOffer;
    return { kind: "invite", text: t(mine ? "ui.status.takeback_offered" : "ui.status.takeback_received") };
  }
  if (state.impasseOffer) {
    const mine = state.you === state.impasseOffer;
    return { kind: "invite", text: t(mine ? "ui.status.impasse_offered" : "ui.status.impasse_received") };
  }
  const turn = state.position.turn;
  let text;
  let kind = "wait";
  if (state.can.move) {
    text = state.you === "both" ? t("ui.status.to_move", { side: sideName(turn, handicap) }) : t("ui.status.your_move");
    kind = "turn";
  } else if (state.thinking) {
    text = t("ui.status.thinking");
  } else if (state.you) {
    text = t("ui.status.opponent_move");
  } else {
    text = t("ui.status.to_move", { side: sideName(turn, handicap) });
  }
  if (state.position.check) {
    text = `${t("ui.status.check")} ${text}`;
    kind = kind === "turn" ? "check" : kind;
  }
  return { kind, text };
}

/** "You won", "☗ Sente wins", "Draw" ... */
export function resultTitle(state) {
  const result = resultView(state);
  if (!result) return "";
  if (result.kind === "win") return t("ui.result.win");
  if (result.kind === "loss") return t("ui.result.loss");
  if (result.kind === "draw") return t("ui.result.draw");
  if (result.winner) return t("ui.result.side_wins", { side: sideName(result.winner, isHandicap(state)) });
  return t("ui.result.over");
}

/** Why the game ended, in words. */
export function resultReason(state) {
  const outcome = state.outcome;
  if (!outcome) return "";
  const handicap = isHandicap(state);
  const loser = loserOf(outcome);
  const params = {
    winner: outcome.winner ? sideName(outcome.winner, handicap) : "",
    loser: loser ? sideName(loser, handicap) : "",
  };
  let key = `termination.${outcome.termination}`;
  if (outcome.termination === "entering_king" && !outcome.winner) key = "termination.entering_king_draw";
  if (outcome.termination === "impasse" && !outcome.winner) key = "termination.impasse_draw";
  let text = t(key, params);
  if (outcome.termination === "illegal_move" && outcome.detail) text += ` (${outcome.detail})`;
  if (outcome.termination === "resignation" && /engine failed/.test(outcome.detail || "")) text = t("termination.engine_failed", params);
  return text;
}

/** The move list: numbered KI2 entries, the last one marked. */
export function renderMoveList(list, state) {
  const items = state.moves.map((move) => h("li", {
    class: move.ply === state.moves.length ? "current" : null,
    dataset: { ply: move.ply },
  },
  h("span", { class: "ply", text: String(move.ply) }),
  h("span", { class: "label", lang: moveTextLang(), text: moveText(move) }),
  move.spent_ms >= 1000 ? h("span", { class: "spent", text: formatClock(move.spent_ms) }) : null));
  if (state.outcome) {
    items.push(h("li", { class: "result-entry" }, h("span", { class: "ply" }), h("span", { class: "label", text: resultTitle(state) })));
  }
  if (!items.length) items.push(h("li", { class: "empty", text: t("ui.game.no_moves") }));
  fill(list, ...items);
  const last = list.lastElementChild;
  if (last && typeof last.scrollIntoView === "function") {
    list.scrollTop = list.scrollHeight;
  }
}

/** One line about the game: handicap and time control. */
export function gameSummary(state) {
  const game = state.game;
  if (!game) return "";
  const parts = [];
  if (game.handicap) {
    // English text takes ASCII brackets around the Japanese name; Chinese takes full-width ones.
    const name = t(`ui.handicap.${game.handicap_english}`);
    parts.push(currentLanguage() === "ja" ? game.handicap
      : currentLanguage() === "en" ? `${name} (${game.handicap})` : `${name}（${game.handicap}）`);
  }
  const tc = game.time_control || {};
  const minutes = Math.round((tc.main || 0) / 6) / 10;
  if (tc.byoyomi) parts.push(t("ui.info.byoyomi", { main: minutes, s: tc.byoyomi }));
  else if (tc.increment) parts.push(t("ui.info.fischer", { main: minutes, s: tc.increment }));
  else if (tc.main) parts.push(t("ui.info.main", { main: minutes }));
  else parts.push(t("ui.info.no_clock"));
  return parts.join(" · ");
}
