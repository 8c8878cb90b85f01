// The game page: the board, both players with their clocks, the move list and the actions.
// Everything about the game comes from the server over the websocket (net.js); this module turns
// clicks into requests and renders the state (state.js, render.js).

import { createBoard, parseSfen, squareIndex } from "../board.js";
import { currentLanguage, formatButton, onLanguageChange, pieceName, t } from "../i18n.js";
import { moveText, onNotationChange } from "../notation.js";
import { GameSocket } from "../net.js";
import { gameSummary, renderMoveList, renderPlayerBar, resultReason, resultTitle, statusOf } from "../render.js";
import { boardProps, initialState, isHandicap, myColor, reduce, resultView } from "../state.js";
import { icon } from "../icons.js";
import { placeSound, setSound, soundOn } from "../sound.js";
import { api, copyText, errorText, h, postJson, rememberGame, sideName, toast, fill } from "../util.js";

export async function mount(root) {
  const gameId = document.body.dataset.gameId;
  let state = initialState(gameId);
  let connection = "connecting";
  let userFlipped = null;
  let token = null;
  // A friend's invitation (checked by the server before it rendered this page): the only way
  // to the open seat.  The creator gets the invitation link to send instead (inviteUrl).
  let invite = document.body.dataset.invite || null;
  let inviteUrl = null;
  let confirmingResign = false;
  let confirmingDeclare = false;
  let resultShownFor = null;

  // -- skeleton ------------------------------------------------------------------------------
  const barTop = h("div", { class: "player-bar top" });
  const barBottom = h("div", { class: "player-bar bottom" });
  const boardEl = h("div", { class: "board-host", id: "board" });
  const statusLine = h("p", { class: "status-line", role: "status", "aria-live": "polite" });
  // The other side's moves read aloud (the computer's, the opponent's; every move for spectators
  // and in a game on one device): "Gote: ☖３四歩, check".
  const moveAnnouncer = h("p", { class: "move-announcer visually-hidden", "aria-live": "polite", "aria-atomic": "true" });
  const watchingLine = h("p", { class: "watching-banner", hidden: true });
  const hintLine = h("p", { class: "hint-line", hidden: true });
  const reasonLine = h("p", { class: "reason-line", hidden: true });
  const connectionLine = h("p", { class: "connection-line", hidden: true });
  const summaryLine = h("p", { class: "summary-line" });
  const joinCard = h("div", { class: "card join-card", hidden: true });
  const inviteCard = h("div", { class: "card invite-card", hidden: true });
  const actions = h("div", { class: "actions" });
  const moveList = h("ol", { class: "move-list", "aria-label": t("ui.game.moves") });
  const movesTitle = h("h2", { class: "card-title" });
  const tools = h("div", { class: "card tools-card" });
  const moveInput = h("input", {
    type: "text", name: "move", autocomplete: "off", spellcheck: "false",
    class: "move-input", maxlength: 40,
  });
  const moveForm = h("form", { class: "move-form" }, moveInput, h("button", { type: "submit", class: "btn" }));
  const dialog = h("dialog", { class: "result-dialog" });

  fill(root, h("div", { class: "game-layout" },
    h("section", { class: "board-column" }, barTop, boardEl, barBottom),
    h("aside", { class: "side-column" },
      h("div", { class: "card status-card" }, watchingLine, statusLine, moveAnnouncer, reasonLine, hintLine, connectionLine,
        summaryLine),
      joinCard,
      inviteCard,
      actions,
      h("div", { class: "card moves-card" }, movesTitle, moveList, moveForm),
      tools)),
  dialog);

  const board = createBoard(boardEl, {
    interactive: false,
    language: currentLanguage(),
    onMove(usi) {
      if (!state.position) return;
      socket.send({ type: "move", usi, ply: state.position.ply });
    },
  });

  const socket = new GameSocket(gameId, {
    onMessage: receive,
    onStatus(status) {
      if (connection === "gone") return; // final: the game does not exist
      connection = status;
      render();
    },
  });

  moveForm.addEventListener("submit", (event) => {
    event.preventDefault();
    // Any notation the terminal reads: the server reads it against the position.
    const text = moveInput.value.trim();
    if (!text || !state.position) return;
    socket.send({ type: "move", text, ply: state.position.ply });
    moveInput.value = "";
  });

  // -- messages ------------------------------------------------------------------------------
  function receive(message) {
    if (message.type === "error") {
      toast(errorText(message.code, message.message, message.params), "error");
      // Nothing changed on the server: show its position again (a refused move goes back).
      if (state.position) board.setPosition(boardProps(state));
      return;
    }
    if (message.type === "pong") return;
    const before = state;
    state = reduce(state, message, performance.now());
    if (message.type === "move") {
      const capture = before.position && countPieces(before.position.sfen) > countPieces(state.position.sfen);
      placeSound(capture);
      announce(before, message.move);
    }
    if (message.type === "state" || message.type === "move") {
      syncBoard(before);
      if (state.you) remember();
    } else if (message.type === "hint") {
      const props = boardProps(state);
      if (props) board.setArrows(props.arrows);
    }
    render();
    if (state.outcome && resultShownFor !== state.moves.length && before.loaded && !before.outcome) {
      resultShownFor = state.moves.length;
      showResult();
    }
  }

  /** Say the move *entry* just played on *before*'s position, unless this player made it. */
  function announce(before, entry) {
    if (!before.position || !state.position || entry.ply !== before.position.ply + 1) return;
    const mover = before.position.turn;
    if (myColor(state) === mover) return;
    const parts = [t("ui.announce.move", { side: sideName(mover, isHandicap(state)), move: moveText(entry) })];
    const to = squareIndex(entry.usi.slice(2, 4));
    const taken = to >= 0 ? parseSfen(before.position.sfen).board[to] : null;
    if (taken && entry.usi[1] !== "*") parts.push(t("ui.announce.capture", { piece: pieceName(taken.type) }));
    if (entry.usi.endsWith("+")) parts.push(t("ui.announce.promotion"));
    if (state.position.check) parts.push(t("ui.announce.check"));
    moveAnnouncer.textContent = parts.reduce((said, more) => t("ui.announce.more", { said, more }));
  }

  function countPieces(sfen) {
    return (sfen.split(" ")[0].match(/[a-zA-Z]/g) || []).length;
  }

  function syncBoard(before) {
    const props = boardProps(state);
    if (!props) return;
    if (userFlipped === null && before.you !== state.you) board.setFlipped(state.you === "w");
    board.setInteractive(!!state.can.move);
    board.setPosition(props);
  }

  // What the recent-games list needs to name the opponent in whatever language it is shown in
  // later (a translated label would keep the language of the day the game was played).
  function remember() {
    const seat = state.game.mode === "computer" ? state.game.players[state.you === "b" ? "w" : "b"] : null;
    const opponent = seat ? { kind: seat.kind, level: seat.level ?? null, name: seat.kind === "usi" ? seat.name || null : null } : null;
    rememberGame({ id: gameId, mode: state.game.mode, color: state.you, opponent, over: !!state.outcome });
  }

  // -- rendering -----------------------------------------------------------------------------
  // Without the invitation an open seat is nothing to act on: the page shows the game as a
  // spectator sees it.
  function viewState() {
    return invite ? state : { ...state, can: { ...state.can, join: false } };
  }

  function render() {
    const status = statusOf(viewState(), connection);
    watchingLine.hidden = !(state.loaded && state.game && !state.you);
    watchingLine.textContent = watchingLine.hidden ? "" : t("ui.game.watching");
    statusLine.textContent = status.text;
    statusLine.dataset.kind = status.kind;
    connectionLine.hidden = connection === "open" || connection === "gone" || !state.loaded;
    connectionLine.textContent = t("ui.status.reconnecting");
    movesTitle.textContent = t("ui.game.moves");
    moveList.setAttribute("aria-label", t("ui.game.moves"));
    moveInput.placeholder = t("ui.game.move_input");
    moveInput.setAttribute("aria-label", t("ui.game.move_input"));
    moveForm.querySelector("button").textContent = t("ui.game.send");
    moveForm.hidden = !state.can.move;
    if (!state.loaded) return;
    summaryLine.textContent = gameSummary(state);
    reasonLine.hidden = !state.outcome;
    reasonLine.textContent = state.outcome ? resultReason(state) : "";
    renderBars();
    renderHint();
    renderJoin();
    renderInvite();
    renderActions();
    renderMoveList(moveList, state);
    renderTools();
    document.title = `${status.text} · shogiban`;
  }

  function renderBars() {
    const bottom = board.flipped ? "w" : "b";
    const now = performance.now();
    renderPlayerBar(barBottom, state, bottom, now);
    renderPlayerBar(barTop, state, bottom === "b" ? "w" : "b", now);
  }

  function renderHint() {
    const hint = state.hint;
    hintLine.hidden = !hint;
    if (hint) hintLine.textContent = hint.usi ? t("ui.game.hint_text", { move: hint.label ? moveText(hint) : hint.usi }) : t("ui.game.hint_none");
  }

  function renderJoin() {
    const canJoin = !!(state.can.join && invite);
    joinCard.hidden = !canJoin;
    if (!canJoin) return;
    const open = state.game.players.b.joined ? "w" : "b";
    fill(joinCard,
      h("p", { text: t("ui.game.join_prompt", { side: sideName(open, isHandicap(state)) }) }),
      h("div", { class: "row" },
        h("button", { class: "btn primary", id: "join-button", onclick: join, text: t("ui.game.join") }),
        h("button", { class: "btn", onclick: () => { joinCard.hidden = true; }, text: t("ui.game.watch") })),
    );
  }

  function renderInvite() {
    const waiting = state.game.mode === "friend" && state.you &&
      Object.values(state.game.players).some((p) => p.kind === "human" && !p.joined);
    inviteCard.hidden = !waiting;
    if (!waiting) return;
    fill(inviteCard,
      h("h2", { class: "card-title", text: t("ui.game.invite_title") }),
      h("p", { text: t("ui.game.invite_text") }),
      inviteUrl ? linkRow(`${location.origin}${inviteUrl}`, "invite-link")
        : h("p", { class: "muted", text: t("ui.game.invite_loading") }),
      h("p", { class: "muted link-note", text: t("ui.game.watch_text") }),
      linkRow(`${location.origin}/game/${gameId}`, "watch-link"),
    );
  }

  function linkRow(link, id) {
    const input = h("input", { type: "text", readonly: true, value: link, class: "link-input", id });
    input.addEventListener("focus", () => input.select());
    return h("div", { class: "row link-row" }, input,
      h("button", {
        class: "btn", type: "button", text: t("ui.game.copy_link"),
        onclick: async () => toast(t((await copyText(link)) ? "ui.game.copied" : "ui.game.copy_failed")),
      }));
  }

  function renderActions() {
    const can = state.can;
    const buttons = [];
    if (can.declare && confirmingDeclare) {
      // A declaration ends the game at once: ask first, as for resigning.
      buttons.push(h("span", { class: "confirm" },
        h("span", { text: t("ui.game.declare_confirm") }),
        h("button", { class: "btn primary", id: "declare-yes", text: t("ui.game.yes"),
          onclick: () => { confirmingDeclare = false; socket.send({ type: "declare", ply: state.position.ply }); render(); } }),
        h("button", { class: "btn", id: "declare-no", text: t("ui.game.no"), onclick: () => { confirmingDeclare = false; render(); } })));
    } else if (can.declare) {
      buttons.push(h("button", { class: "btn declare", id: "declare-button", text: t("ui.game.declare"),
        onclick: () => { confirmingDeclare = true; render(); } }));
    }
    if (can.impasse) {
      const accepting = state.impasseOffer && state.impasseOffer !== state.you;
      buttons.push(h("button", { class: "btn declare", id: "impasse-button", text: t(accepting ? "ui.game.impasse_accept" : "ui.game.impasse"),
        onclick: () => socket.send({ type: "impasse", ply: state.position.ply }) }));
    }
    if (can.hint) {
      buttons.push(h("button", { class: "btn", id: "hint-button", text: t("ui.game.hint"),
        onclick: () => { socket.send({ type: "hint", ply: state.position.ply }); hintLine.hidden = false; hintLine.textContent = t("ui.game.hint_wait"); } }));
    }
    // Between friends a take-back is asked for, then agreed to or refused (待った).
    const friends = state.game.mode === "friend";
    const asked = friends && state.takebackOffer && state.takebackOffer !== state.you;
    if (can.undo) {
      const label = !friends ? "ui.game.undo" : asked ? "ui.game.undo_accept" : "ui.game.undo_ask";
      buttons.push(h("button", { class: "btn", id: "undo-button", text: t(label),
        onclick: () => socket.send({ type: "undo", ply: state.position.ply }) }));
    }
    if (can.decline_undo) {
      buttons.push(h("button", { class: "btn", id: "decline-undo-button",
        text: t(asked ? "ui.game.undo_decline" : "ui.game.undo_withdraw"),
        onclick: () => socket.send({ type: "decline_undo" }) }));
    }
    if (can.resign) {
      const waiting = Object.values(state.game.players).some((p) => p.kind === "human" && !p.joined);
      if (confirmingResign) {
        buttons.push(h("span", { class: "confirm" },
          h("span", { text: t(waiting ? "ui.game.cancel_confirm" : "ui.game.resign_confirm") }),
          h("button", { class: "btn danger", id: "resign-yes", text: t("ui.game.yes"),
            onclick: () => { confirmingResign = false; socket.send({ type: "resign" }); render(); } }),
          h("button", { class: "btn", text: t("ui.game.no"), onclick: () => { confirmingResign = false; render(); } })));
      } else {
        buttons.push(h("button", { class: "btn", id: "resign-button", text: t(waiting ? "ui.game.cancel" : "ui.game.resign"),
          onclick: () => { confirmingResign = true; render(); } }));
      }
    }
    const soundLabel = t(soundOn() ? "ui.game.sound_on" : "ui.game.sound_off");
    buttons.push(h("button", { class: "btn ghost icon-only", id: "sound-button", "aria-pressed": String(soundOn()),
      title: soundLabel, "aria-label": soundLabel,
      onclick: () => { setSound(!soundOn()); render(); } }, icon(soundOn() ? "sound" : "mute")));
    buttons.push(h("button", { class: "btn ghost icon-only", id: "flip-button", title: t("ui.game.flip"), "aria-label": t("ui.game.flip"),
      onclick: () => { userFlipped = !board.flipped; board.setFlipped(userFlipped); render(); } }, icon("flip")));
    fill(actions, ...buttons);
  }

  function renderTools() {
    const downloads = ["kif", "ki2", "csa", "usi", "sfen"].map((fmt) => h("a", {
      class: "btn small", href: `/api/games/${gameId}/record.${fmt}`, download: "", dataset: { format: fmt },
      text: formatButton(fmt), title: t(`ui.format.${fmt}`), "aria-label": t(`ui.format.${fmt}`),
    }));
    const parts = [
      h("h2", { class: "card-title", text: t("ui.game.record") }),
      h("div", { class: "row wrap" }, h("span", { class: "muted", text: t("ui.game.download") }), ...downloads),
      state.outcome ? h("div", { class: "row wrap", id: "analyse-tools" }, h("a", { class: "btn small", id: "analyse-tools-link",
        href: `/games/${encodeURIComponent(gameId)}/analysis`, text: t("ui.analysis.open") })) : null,
      h("div", { class: "row wrap" },
        h("a", { class: "btn small", href: `/record?game=${encodeURIComponent(gameId)}`, text: t("ui.game.view_record") }),
        h("a", { class: "btn small", href: "/", text: t("ui.game.new_game") })),
    ];
    if (state.game.mode === "friend") {
      parts.push(h("details", { class: "share" },
        h("summary", { text: t("ui.game.share") }),
        h("p", { class: "muted", text: t("ui.game.share_text") }),
        linkRow(`${location.origin}/game/${gameId}`, "share-link"),
        token && state.you ? h("p", { class: "muted", text: t("ui.game.private_text") }) : null,
        token && state.you ? linkRow(`${location.origin}/game/${gameId}?token=${token}`, "private-link") : null));
    }
    if (state.spectators) parts.push(h("p", { class: "muted", text: t("ui.game.spectators", { n: state.spectators }) }));
    fill(tools, ...parts);
  }

  function showResult() {
    const result = resultView(state);
    if (!result) return;
    dialog.dataset.kind = result.kind;
    fill(dialog, h("form", { method: "dialog", class: "result-box" },
      h("p", { class: "result-mark" }, icon(result.kind === "win" ? "trophy" : "piece", "icon result-icon")),
      h("h2", { class: "result-title", text: resultTitle(state) }),
      h("p", { class: "result-reason", text: resultReason(state) }),
      h("div", { class: "row wrap center" },
        h("a", { class: "btn primary", href: "/", text: t("ui.game.new_game") }),
        h("a", { class: "btn", href: `/record?game=${encodeURIComponent(gameId)}`, text: t("ui.game.view_record") }),
        h("a", { class: "btn", id: "analyse-link", href: `/games/${encodeURIComponent(gameId)}/analysis`, text: t("ui.analysis.open") }),
        h("a", { class: "btn", href: `/api/games/${gameId}/record.kif`, download: "", text: t("ui.game.download_kif") }),
        h("button", { class: "btn ghost", value: "close", text: t("ui.game.close") }))));
    if (typeof dialog.showModal === "function" && !dialog.open) dialog.showModal();
  }

  async function join() {
    try {
      const answer = await postJson(`/api/games/${gameId}/join`, { invite });
      token = answer.token;
      invite = null; // used up: the address no longer needs it
      history.replaceState(null, "", `/game/${encodeURIComponent(gameId)}`);
      socket.send({ type: "hello", token: answer.token });
      toast(t("ui.game.joined", { side: sideName(answer.color, isHandicap(state)) }));
    } catch (error) {
      toast(errorText(error.code, error.message), "error");
    }
  }

  // The player's own token (for the private link) and, while the friend's seat is open, the
  // invitation to send; spectators get neither.
  api(`/api/games/${gameId}`).then((body) => {
    token = body.token || null;
    inviteUrl = body.invite_url || null;
    if (state.loaded) render();
  }).catch((error) => {
    if (error.code === "unknown_game") {
      connection = "gone";
      render();
    }
  });

  setInterval(() => {
    if (state.loaded && state.clock && state.clock.enabled && !state.outcome) renderBars();
  }, 200);

  onNotationChange(() => render());
  onLanguageChange((language) => {
    board.setLanguage(language);
    render();
    if (dialog.open) showResult();
  });
  render();
}

