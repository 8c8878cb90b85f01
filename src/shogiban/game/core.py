"""The game's rules of procedure: :func:`allowed` and :func:`apply`.

>>> from shogiban.game import GameState, PlayMove, Resign, Role, apply, allowed
>>> state = GameState.new(now=0.0)
>>> state, events = apply(state, PlayMove("7g7f"), now=3.0)
>>> [type(e).__name__ for e in events]
['MovePlayed', 'ClockUpdated']
>>> allowed(state, Role.BLACK, PlayMove("3c3d")).code
'not_your_turn'
>>> state, events = apply(state, Resign(), now=5.0)
>>> state.outcome.detail, state.outcome.result()
('gote resigned', '1-0')
"""

from __future__ import annotations

from dataclasses import replace

from shogiban import rules
from shogiban.errors import InvalidMoveError, Refusal, ShogibanError
from shogiban.game.actions import (
    Abandon,
    Action,
    Declare,
    DeclineTakeback,
    EngineFailure,
    FlagFall,
    ImpasseAgreement,
    PlayMove,
    Resign,
    Start,
    Undo,
)
from shogiban.game.events import (
    ClockUpdated,
    Event,
    GameEnded,
    GameStarted,
    ImpasseProposed,
    MovePlayed,
    MovesTakenBack,
    TakebackDeclined,
    TakebackProposed,
)
from shogiban.game.state import GameState, Mode, PlayedMove, Role, Status
from shogiban.move import Move as BoardMove
from shogiban.outcome import Outcome, Termination
from shogiban.pieces import Color

#: Ends after which a take-back may reopen the game (the position decided it, not a player).
UNDOABLE_ENDS = frozenset(
    {Termination.CHECKMATE, Termination.NO_LEGAL_MOVES, Termination.REPETITION, Termination.PERPETUAL_CHECK}
)
_SIDE = rules.SIDE_NAMES
_SYSTEM_ONLY = (FlagFall, EngineFailure, Start)


class RefusedError(ShogibanError):
    """:func:`apply` was given an action the state does not allow; ``code`` is the refusal's."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message or refusal.code)
        self.refusal = refusal
        self.code = refusal.code


def evolve(state: GameState, **changes: object) -> GameState:
    """``replace(state, **changes)`` keeping the cached position when the moves stay (for front
    ends that set up a state: a game that ended before it began, a clock started late)."""
    return state.evolve(**changes)


def _refuse(code: str, message: str, **params: str | int) -> Refusal:
    return Refusal(code, params, message)


def acting_color(state: GameState, role: Role, action: Action) -> Color:
    """The side *action* is taken for: the one it names, else the side to move for a role that
    plays both (or the system), else the role's own side."""
    named = getattr(action, "color", None)
    if isinstance(named, Color):
        return named
    if role in (Role.BLACK, Role.WHITE) and isinstance(action, Resign | ImpasseAgreement | Undo | DeclineTakeback):
        return Color.BLACK if role is Role.BLACK else Color.WHITE
    if isinstance(action, Undo) and state.mode is Mode.FRIEND:
        return state.turn.other  # a take-back is asked for by the side that just moved
    return state.turn


def undo_count(state: GameState, requester: Color | None = None) -> int:
    """How many moves a take-back removes now (0: none).  Between friends it is *requester*'s
    (default: the side whose request waits): its last move, and the reply to it if any."""
    if state.mode is Mode.LOCAL:
        count = 1
    elif state.mode is Mode.COMPUTER:
        human = state.human()
        if human is None:
            return 0
        # While the engine thinks only the human's move goes; else the engine's reply too.
        count = 1 if state.turn != human else 2
    elif state.mode is Mode.FRIEND:
        requester = requester if requester is not None else state.takeback_offer
        if requester is None:
            return 0
        count = 1 if state.turn != requester else 2
    else:
        return 0
    return count if state.ply >= count else 0


def allowed(state: GameState, role: Role, action: Action, *, adjudicate: bool = False) -> Refusal | None:
    """Why *role* may not take *action* in *state*, or None if it may.

    The same answer decides which buttons a front end shows and whether a request is refused;
    ``PlayMove()`` without a move asks whether *role* may move at all.  With *adjudicate* a foul is
    not refused (it loses: see :func:`apply`).
    """
    if role is Role.SPECTATOR:
        return _refuse("spectator", "spectators cannot take part in the game")
    if role is not Role.SYSTEM:
        refusal = _role_refusal(state, action) or _status_refusal(state, action) or _turn_refusal(state, role, action)
        if refusal is not None:
            return refusal
    if isinstance(action, Resign | ImpasseAgreement | Undo | DeclineTakeback) and action.color is None \
            and (state.mode is Mode.FRIEND or not isinstance(action, Undo)):
        action = replace(action, color=acting_color(state, role, action))
    return check(state, action, adjudicate=adjudicate)


def _role_refusal(state: GameState, action: Action) -> Refusal | None:
    if isinstance(action, _SYSTEM_ONLY):
        return _refuse("not_allowed", "only the game itself may do that")
    if state.mode is Mode.MATCH and not isinstance(action, PlayMove | Resign | Declare):
        return _refuse("not_allowed", "a match allows moves, resignations and declarations only")
    if isinstance(action, Abandon):
        if state.status is Status.WAITING or state.mode in (Mode.LOCAL, Mode.COMPUTER):
            return None
        return _refuse("not_allowed", "a game between two players cannot be abandoned: resign instead")
    if isinstance(action, Undo | DeclineTakeback) and state.mode not in (Mode.COMPUTER, Mode.LOCAL, Mode.FRIEND):
        return _refuse("not_allowed", "take-backs are not possible in this game")
    return None


def _turn_refusal(state: GameState, role: Role, action: Action) -> Refusal | None:
    if isinstance(action, Abandon) or (isinstance(action, Undo) and state.mode is not Mode.FRIEND):
        return None
    color = acting_color(state, role, action)
    if isinstance(action, PlayMove | Declare) and (not role.covers(color) or state.engines[color]):
        return _refuse("not_your_turn", f"it is {_SIDE[color]}'s turn", side=_SIDE[color])
    if not role.covers(color):
        return _refuse("not_your_turn", f"you do not play {_SIDE[color]}", side=_SIDE[color])
    return None


def _status_refusal(state: GameState, action: Action) -> Refusal | None:
    if state.status is Status.OVER:
        if isinstance(action, Undo) and state.outcome is not None and state.outcome.termination in UNDOABLE_ENDS:
            return None
        detail = state.outcome.detail if state.outcome is not None else "abandoned"
        return _refuse("game_over", f"the game is over ({detail})")
    if state.status is Status.WAITING and not isinstance(action, Resign | Abandon | Start):
        return _refuse("waiting", "the game has not started: waiting for the opponent to join")
    return None


def check(state: GameState, action: Action, *, adjudicate: bool = False) -> Refusal | None:
    """Why *action* cannot happen in *state* whoever asks, or None (what :func:`apply` refuses).
    With *adjudicate*, a move or declaration is judged as in a tournament (see :func:`apply`)."""
    refusal = _status_refusal(state, action)
    if refusal is not None:
        return refusal
    if state.status is Status.OVER:
        assert isinstance(action, Undo)
        return _undo_refusal(state, action)
    if state.status is Status.WAITING:
        return None
    if isinstance(action, Start):
        return _refuse("not_allowed", "the game has already started")
    ply = getattr(action, "ply", None)
    if ply is not None and ply != state.ply:
        return _refuse("stale_ply", f"stale request: ply {ply!r} but {state.ply} moves have been played", ply=state.ply)
    if isinstance(action, PlayMove):
        return None if adjudicate else _move_refusal(state, action)
    if isinstance(action, Declare):
        if not (state.tournament or adjudicate):
            # The one status the rules work out: a 24-30 point declaration under the 24-point rule
            # is a 持将棋 draw, not a failure, whoever declares it.
            failed = state.board().declaration_status().refusal
            if failed is not None:
                return Refusal("cannot_declare", {"reason": failed.code, **failed.params},
                               f"the declaration would fail: {failed.message}")
        return None
    if isinstance(action, Undo):
        return _undo_refusal(state, action)
    if isinstance(action, DeclineTakeback):
        if state.mode is not Mode.FRIEND or state.takeback_offer is None:
            return _refuse("nothing_to_decline", "no take-back request is waiting")
        return None
    if isinstance(action, ImpasseAgreement):
        if not state.kings_entered():
            return _refuse("cannot_impasse", "both kings must be in their enemy camps for an impasse (持将棋)")
        color = action.color if action.color is not None else state.turn
        if state.mode is Mode.FRIEND and state.impasse_offer == color:
            return _refuse("busy", "your proposal is waiting for your opponent")
    return None


def _undo_refusal(state: GameState, action: Undo) -> Refusal | None:
    if action.ply is not None and action.ply != state.ply:
        return _refuse("stale_ply", f"stale request: ply {action.ply!r} but {state.ply} moves have been played",
                       ply=state.ply)
    if state.mode not in (Mode.COMPUTER, Mode.LOCAL, Mode.FRIEND):
        return _refuse("not_allowed", "take-backs are not possible in this game")
    if state.mode is Mode.FRIEND:
        if state.status is Status.OVER:
            return _refuse("game_over", "the game is over")
        color = action.color if action.color is not None else state.turn.other
        if state.takeback_offer == color:
            return _refuse("busy", "your take-back request is waiting for your opponent")
        requester = state.takeback_offer if state.takeback_offer is not None else color
        if undo_count(state, requester) == 0:
            return _refuse("nothing_to_undo", "there is no move to take back")
        return None
    if undo_count(state) == 0:
        return _refuse("nothing_to_undo", "there is no move to take back")
    return None


def _move_refusal(state: GameState, action: PlayMove) -> Refusal | None:
    if not action.usi or state.tournament:
        return None  # the probe, or a foul the rules record as a loss
    board = state.board()
    try:
        move = BoardMove.from_usi(action.usi)
    except InvalidMoveError as error:
        return _refuse("invalid_move", str(error), usi=action.usi)
    if board.is_legal(move):
        return None
    refused = rules.check_move(board, move) or Refusal("illegal", {}, "illegal move")
    # Every parameter the rules give (file, squares, piece), so a front end can say which file.
    return Refusal(refused.code, {**refused.params, "usi": action.usi},
                   f"illegal move: {action.usi!r} ({refused.message})")


def apply(
    state: GameState, action: Action, now: float, *, adjudicate: bool = False,
) -> tuple[GameState, list[Event]]:
    """The state after *action* at *now*, and what happened.

    A move or a declaration made after the mover's time ran out ends the game on time instead.
    With *adjudicate* (an engine's decision, in every front end) an illegal or unreadable move and
    a failed declaration are not refused but lose, as in a tournament, without changing the game.

    :raises RefusedError: if *action* cannot happen in *state* (see :func:`check`).
    """
    refusal = check(state, action, adjudicate=adjudicate)
    if refusal is not None:
        raise RefusedError(refusal)
    if isinstance(action, Start):
        clock = state.clock.start(state.turn, now)
        return evolve(state, status=Status.PLAYING, clock=clock), [GameStarted(), ClockUpdated(clock)]
    if isinstance(action, Resign):
        if state.status is Status.WAITING:
            return _end(state, Outcome(Termination.ABANDONED, None, "the game was cancelled before it started"), now)
        loser = action.color if action.color is not None else state.turn
        return _end(state, Outcome(Termination.RESIGNATION, loser.other, f"{_SIDE[loser]} resigned"), now)
    if isinstance(action, Abandon):
        return _end(state, Outcome(Termination.ABANDONED, None, action.detail or "the game was abandoned"), now)
    if isinstance(action, EngineFailure):
        detail = f"{_SIDE[action.color]}: {action.detail or 'the engine failed'}"
        return _end(state, Outcome(Termination.ABANDONED, action.color.other, detail), now)
    if isinstance(action, FlagFall):
        if not state.clock.is_flagged(now):
            raise RefusedError(_refuse("not_allowed", "the clock has not run out"))
        return _flag(state, now)
    if isinstance(action, PlayMove | Declare) and state.clock.is_flagged(now):
        return _flag(state, now)
    if isinstance(action, PlayMove):
        return _move(state, action, now, adjudicate)
    if isinstance(action, Declare):
        board = state.board()
        board.tournament = board.tournament or adjudicate  # a copy: the state's own board is untouched
        return _end(state, board.declare_win(), now)
    if isinstance(action, Undo):
        if state.mode is Mode.FRIEND:
            color = action.color if action.color is not None else state.turn.other
            if state.takeback_offer != color.other:  # a request: the opponent decides
                return evolve(state, takeback_offer=color), [TakebackProposed(color)]
            return _undo(state, now, undo_count(state, color.other))
        return _undo(state, now)
    if isinstance(action, DeclineTakeback):
        color = action.color if action.color is not None else state.turn
        return evolve(state, takeback_offer=None), [TakebackDeclined(color)]
    assert isinstance(action, ImpasseAgreement)
    color = action.color if action.color is not None else state.turn
    if state.mode is Mode.FRIEND and state.impasse_offer != color.other:
        return evolve(state, impasse_offer=color), [ImpasseProposed(color)]
    return _end(state, state.board().settle_impasse(), now)


def _flag(state: GameState, now: float) -> tuple[GameState, list[Event]]:
    loser = state.clock.running if state.clock.running is not None else state.turn
    outcome = Outcome(Termination.TIME_FORFEIT, loser.other, f"{_SIDE[loser]} ran out of time")
    clock = state.clock.flag()
    ended = evolve(state, status=Status.OVER, outcome=outcome, clock=clock, impasse_offer=None, takeback_offer=None)
    return ended, [ClockUpdated(clock), GameEnded(outcome)]


def _end(state: GameState, outcome: Outcome, now: float) -> tuple[GameState, list[Event]]:
    clock = state.clock.stop(now)
    ended = evolve(state, status=Status.OVER, outcome=outcome, clock=clock, impasse_offer=None, takeback_offer=None)
    return ended, [ClockUpdated(clock), GameEnded(outcome)]


def _move(state: GameState, action: PlayMove, now: float, adjudicate: bool = False) -> tuple[GameState, list[Event]]:
    board = state.board()
    try:
        move = BoardMove.from_usi(action.usi)
    except InvalidMoveError:
        # Only in tournament mode (check() refuses it otherwise): unreadable text is a foul.
        detail = f"{_SIDE[board.turn]}: unreadable move {action.usi!r}"
        return _end(state, Outcome(Termination.ILLEGAL_MOVE, board.turn.other, detail), now)
    if not board.is_legal(move):
        board.tournament = True  # tournament or adjudicated (a copy): records the foul and its reason
        board.push_legal(move)
        outcome = board.outcome()
        assert outcome is not None
        return _end(state, outcome, now)
    clock, spent = state.clock.press(now)
    board.push(move)
    # A move answers any proposal still open: it is withdrawn (持将棋) or refused (待った).
    played = replace(state, moves=(*state.moves, PlayedMove(move.usi(), spent)), clock=clock, impasse_offer=None,
                     takeback_offer=None)
    played.with_board(board)
    events: list[Event] = [MovePlayed(played.ply, move.usi(), spent)]
    outcome = board.outcome()
    if outcome is None:
        return played, [*events, ClockUpdated(clock)]
    ended, more = _end(played, outcome, now)
    return ended, events + more


def _undo(state: GameState, now: float, count: int | None = None) -> tuple[GameState, list[Event]]:
    count = undo_count(state) if count is None else count
    board = state.board()
    for _ in range(count):
        board.pop()
    # The clocks keep what they had; the side to move starts its turn afresh.
    clock = state.clock.stop(now) if state.clock.running is not None else state.clock
    clock = clock.start(board.turn, now)
    undone = replace(state, moves=state.moves[: len(state.moves) - count], clock=clock, status=Status.PLAYING,
                     outcome=None, impasse_offer=None, takeback_offer=None)
    undone.with_board(board)
    return undone, [MovesTakenBack(count, undone.ply), ClockUpdated(clock)]


def permissions(state: GameState, role: Role) -> dict[str, bool]:
    """Which buttons *role* sees: ``move``, ``resign``, ``undo``, ``decline_undo``, ``declare``,
    ``impasse``, ``abandon``."""
    probes: dict[str, Action] = {
        "move": PlayMove(), "resign": Resign(), "undo": Undo(), "decline_undo": DeclineTakeback(), "declare": Declare(),
        "impasse": ImpasseAgreement(), "abandon": Abandon(),
    }
    return {name: allowed(state, role, probe) is None for name, probe in probes.items()}


__all__ = [
    "UNDOABLE_ENDS", "RefusedError", "acting_color", "allowed", "apply", "check", "evolve", "permissions", "undo_count",
]
