// The game page's state: one object, changed only by reduce(state, serverMessage).  Pure
// functions, no DOM and no rules: everything about the game comes from the server.

const NOTHING = { move: false, undo: false, hint: false, declare: false, resign: false, join: false };

/** The state before the first message. */
export function initialState(gameId) {
  return {
    gameId,
    loaded: false,
    game: null,
    you: null,
    position: null,
    moves: [],
    clock: null,
    clockAt: 0,
    outcome: null,
    can: NOTHING,
    thinking: false,
    spectators: 0,
    hint: null,
    impasseOffer: null,
    takebackOffer: null,
    connection: "connecting",
  };
}

/** The state after a server message (`now`: performance.now() when it arrived). */
export function reduce(state, message, now = 0) {
  switch (message.type) {
    case "state":
      return {
        ...state,
        loaded: true,
        game: message.game,
        you: message.you,
        position: message.position,
        moves: message.moves,
        clock: message.clock,
        clockAt: now,
        outcome: message.outcome,
        can: message.can,
        thinking: message.thinking,
        impasseOffer: message.impasse_offer || null,
        takebackOffer: message.takeback_offer || null,
        hint: null,
      };
    case "move": {
      if (!state.loaded) return state;
      const entry = message.move;
      const moves = state.moves.slice(0, entry.ply - 1);
      moves.push(entry);
      return {
        ...state,
        position: message.position,
        moves,
        clock: message.clock,
        clockAt: now,
        outcome: message.outcome,
        can: message.can,
        thinking: message.thinking,
        impasseOffer: null,
        takebackOffer: null, // a move answers a take-back request
        hint: null,
      };
    }
    case "hint":
      if (!state.position || message.ply !== state.position.ply) return state;
      return { ...state, hint: message };
    case "presence": {
      if (!state.game) return { ...state, spectators: message.spectators };
      const players = { ...state.game.players };
      for (const color of ["b", "w"]) {
        const seat = players[color];
        if (seat && seat.kind === "human") players[color] = { ...seat, online: !!message.online[color] };
      }
      return { ...state, game: { ...state.game, players }, spectators: message.spectators };
    }
    default:
      return state;
  }
}

/** What the board should show. */
export function boardProps(state) {
  const p = state.position;
  if (!p) return null;
  const arrows = [];
  if (state.hint && state.hint.usi) {
    const usi = state.hint.usi;
    arrows.push(usi[1] === "*" ? [usi[0], usi.slice(2, 4)] : [usi.slice(0, 2), usi.slice(2, 4)]);
  }
  return {
    sfen: p.sfen,
    lastMove: p.last_move,
    dests: p.dests,
    dropDests: p.drop_dests,
    check: p.check,
    turn: p.turn,
    arrows,
  };
}

/** The colour this client plays, or null (spectator, or both sides on one device). */
export function myColor(state) {
  return state.you === "b" || state.you === "w" ? state.you : null;
}

/** Whether the game started from a handicap position. */
export function isHandicap(state) {
  return !!(state.game && state.game.handicap);
}

/**
 * A side's clock at `now` (performance.now()): {enabled, main, byoyomi, running, inByoyomi, low}.
 * The server's snapshot is counted down locally for the side whose clock runs.
 */
export function clockView(state, color, now) {
  const clock = state.clock;
  if (!clock || !clock.enabled) return { enabled: false };
  const side = color === "b" ? "black" : "white";
  let main = clock[side];
  let byoyomi = clock[`${side}_byoyomi`];
  const running = clock.running === color && !state.outcome;
  if (running) {
    let spent = Math.max(0, now - state.clockAt);
    if (spent <= main) {
      main -= spent;
    } else {
      spent -= main;
      main = 0;
      byoyomi = Math.max(0, byoyomi - spent);
    }
  }
  // The side that lost on time has nothing left, whatever period the snapshot was taken in.
  const outcome = state.outcome;
  if (outcome && outcome.termination === "time_forfeit" && outcome.winner && outcome.winner !== color) {
    main = 0;
    byoyomi = 0;
  }
  const inByoyomi = main <= 0 && clock.byoyomi > 0;
  const left = inByoyomi ? byoyomi : main;
  return { enabled: true, main, byoyomi, running, inByoyomi, low: running && left < 10000 };
}

/**
 * How the game ended from this client's point of view: {kind: "win"|"loss"|"draw"|"over",
 * winner: "b"|"w"|null, termination, detail}, or null while it goes on.
 */
export function resultView(state) {
  const outcome = state.outcome;
  if (!outcome) return null;
  const mine = myColor(state);
  let kind = "over";
  if (outcome.winner === null) kind = outcome.termination === "abandoned" ? "over" : "draw";
  else if (mine) kind = outcome.winner === mine ? "win" : "loss";
  return { kind, winner: outcome.winner, termination: outcome.termination, detail: outcome.detail };
}

/** The loser of a decided game, or null. */
export function loserOf(outcome) {
  if (!outcome || !outcome.winner) return null;
  return outcome.winner === "b" ? "w" : "b";
}
