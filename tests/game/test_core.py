"""The rules of procedure: every action from every role in every status, and what each does."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from shogiban.game import (
    Abandon,
    Action,
    Clock,
    ClockUpdated,
    Declare,
    DeclineTakeback,
    EngineFailure,
    FlagFall,
    GameEnded,
    GameStarted,
    GameState,
    ImpasseAgreement,
    ImpasseProposed,
    Mode,
    MovePlayed,
    MovesTakenBack,
    PlayMove,
    RefusedError,
    Resign,
    Role,
    Start,
    Status,
    TakebackDeclined,
    TakebackProposed,
    TimeControl,
    Undo,
    allowed,
    apply,
    check,
    evolve,
    permissions,
)
from shogiban.outcome import Termination
from shogiban.pieces import Color

B, W = Color.BLACK, Color.WHITE
ROLES = list(Role)
#: Sente's king and 19 pieces in gote's camp, 28 points with the pawn in hand; gote's king in
#: sente's camp: sente may declare, and both kings have entered.
DECLARABLE = "+L+NSGKGS+N+L/1R5B1/PPPPPPPPP/9/9/9/9/9/4k4 b P 1"
#: G*5b mates.
MATE_IN_ONE = "4k4/9/4G4/9/9/9/9/9/4K4 b G 1"


def actions() -> list[Action]:
    return [PlayMove("7g7f"), Resign(), Undo(), DeclineTakeback(), Declare(), ImpasseAgreement(), FlagFall(),
            EngineFailure(B, "crashed"), Abandon(), Start()]


def code(state: GameState, role: Role, action: Action) -> str | None:
    refusal = allowed(state, role, action)
    return None if refusal is None else refusal.code


def playing(mode: Mode = Mode.FRIEND, **kwargs: object) -> GameState:
    return GameState.new(mode=mode, now=0.0, **kwargs)  # type: ignore[arg-type]


def run(state: GameState, *steps: Action, now: float = 1.0) -> GameState:
    for step in steps:
        state, _ = apply(state, step, now)
    return state


# -- the whole table, for a friends' game ------------------------------------------------------

FRIEND_PLAYING = {
    #            BLACK            WHITE            BOTH              SPECTATOR    SYSTEM
    "PlayMove": (None, "not_your_turn", None, "spectator", None),
    "Resign": (None, None, None, "spectator", None),
    "Undo": ("nothing_to_undo", "nothing_to_undo", "nothing_to_undo", "spectator", "nothing_to_undo"),
    "DeclineTakeback": ("nothing_to_decline", "nothing_to_decline", "nothing_to_decline", "spectator",
                        "nothing_to_decline"),
    "Declare": ("cannot_declare", "not_your_turn", "cannot_declare", "spectator", "cannot_declare"),
    "ImpasseAgreement": ("cannot_impasse", "cannot_impasse", "cannot_impasse", "spectator", "cannot_impasse"),
    "FlagFall": ("not_allowed", "not_allowed", "not_allowed", "spectator", None),
    "EngineFailure": ("not_allowed", "not_allowed", "not_allowed", "spectator", None),
    "Abandon": ("not_allowed", "not_allowed", "not_allowed", "spectator", None),
    "Start": ("not_allowed", "not_allowed", "not_allowed", "spectator", "not_allowed"),
}
FRIEND_WAITING = {
    "PlayMove": ("waiting", "waiting", "waiting", "spectator", "waiting"),
    "Resign": (None, None, None, "spectator", None),
    "Undo": ("waiting", "waiting", "waiting", "spectator", "waiting"),
    "DeclineTakeback": ("waiting", "waiting", "waiting", "spectator", "waiting"),
    "Declare": ("waiting", "waiting", "waiting", "spectator", "waiting"),
    "ImpasseAgreement": ("waiting", "waiting", "waiting", "spectator", "waiting"),
    "FlagFall": ("not_allowed", "not_allowed", "not_allowed", "spectator", "waiting"),
    "EngineFailure": ("not_allowed", "not_allowed", "not_allowed", "spectator", "waiting"),
    "Abandon": (None, None, None, "spectator", None),
    "Start": ("not_allowed", "not_allowed", "not_allowed", "spectator", None),
}
FRIEND_OVER = {
    "PlayMove": ("game_over", "game_over", "game_over", "spectator", "game_over"),
    "Resign": ("game_over", "game_over", "game_over", "spectator", "game_over"),
    "Undo": ("game_over", "game_over", "game_over", "spectator", "game_over"),
    "DeclineTakeback": ("game_over", "game_over", "game_over", "spectator", "game_over"),
    "Declare": ("game_over", "game_over", "game_over", "spectator", "game_over"),
    "ImpasseAgreement": ("game_over", "game_over", "game_over", "spectator", "game_over"),
    "FlagFall": ("not_allowed", "not_allowed", "not_allowed", "spectator", "game_over"),
    "EngineFailure": ("not_allowed", "not_allowed", "not_allowed", "spectator", "game_over"),
    "Abandon": ("not_allowed", "not_allowed", "not_allowed", "spectator", "game_over"),
    "Start": ("not_allowed", "not_allowed", "not_allowed", "spectator", "game_over"),
}


@pytest.mark.parametrize(("status", "table"), [
    ("playing", FRIEND_PLAYING), ("waiting", FRIEND_WAITING), ("over", FRIEND_OVER),
])
def test_every_action_from_every_role(status: str, table: dict[str, tuple[str | None, ...]]) -> None:
    state = GameState.new(mode=Mode.FRIEND, waiting=status == "waiting", now=0.0)
    if status == "over":
        state = run(state, Resign())
    for action in actions():
        got = tuple(code(state, role, action) for role in ROLES)
        assert got == table[type(action).__name__], type(action).__name__


def states() -> list[GameState]:
    """A game in every status and mode, and a few positions that matter."""
    found = []
    for mode in Mode:
        engines = (False, True) if mode is Mode.COMPUTER else (True, True) if mode is Mode.MATCH else (False, False)
        base = GameState.new(mode=mode, engines=engines, clock=Clock(TimeControl.of(10)), now=0.0)
        found += [base, replace(base, status=Status.WAITING), run(base, Resign()), run(base, PlayMove("7g7f"))]
        found.append(GameState.new(mode=mode, engines=engines, start_sfen=DECLARABLE, now=0.0))
        found.append(run(GameState.new(mode=mode, engines=engines, start_sfen=MATE_IN_ONE, now=0.0), PlayMove("G*5b")))
    return found


@pytest.mark.parametrize("state", states(), ids=lambda s: f"{s.mode.value}-{s.status.value}-{s.ply}")
def test_allowed_and_apply_agree(state: GameState) -> None:
    """Whatever allowed() lets through, apply() does; what check() refuses, apply() refuses alike."""
    for role in ROLES:
        extra = [PlayMove("G*5b"), PlayMove("5a4a"), PlayMove("bogus"), Declare(ply=0), Resign(ply=3)]
        for action in [*actions(), *extra]:
            if isinstance(action, PlayMove) and action.usi == "7g7f" and state.start_sfen != GameState().start_sfen:
                continue
            refusal = allowed(state, role, action)
            if refusal is None and not isinstance(action, FlagFall):
                new, events = apply(state, action, 1.0)
                assert events
                assert new != state
            base = check(state, action)
            if base is not None:
                with pytest.raises(RefusedError) as info:
                    apply(state, action, 1.0)
                assert info.value.code == base.code
                assert refusal is not None


# -- what each action does ---------------------------------------------------------------------

def test_move_charges_the_clock_and_records_the_time() -> None:
    state = playing(clock=Clock(TimeControl.of(60)))
    state, events = apply(state, PlayMove("7g7f", ply=0), 7.5)
    assert events[0] == MovePlayed(1, "7g7f", timedelta(seconds=7.5))
    assert isinstance(events[1], ClockUpdated)
    assert events[1].clock.remaining[B] == timedelta(seconds=52.5)
    assert state.turn == W
    assert state.moves[0].spent == timedelta(seconds=7.5)
    assert state.clock.running == W
    assert code(state, Role.BLACK, PlayMove("3c3d")) == "not_your_turn"
    assert code(state, Role.WHITE, PlayMove("3c3d", ply=0)) == "stale_ply"


def test_illegal_and_unreadable_moves_are_refused_with_the_rule() -> None:
    state = playing()
    assert code(state, Role.BLACK, PlayMove("7g7e")) == "bad_piece_move"
    assert code(state, Role.BLACK, PlayMove("P*5e")) == "no_piece_in_hand"
    assert code(state, Role.BLACK, PlayMove("zz")) == "invalid_move"
    with pytest.raises(RefusedError) as info:
        apply(state, PlayMove("7g7e"), 1.0)
    assert info.value.code == "bad_piece_move"
    assert "7g7e" in str(info.value)


def test_tournament_fouls_lose() -> None:
    state = playing(Mode.MATCH, engines=(True, True), tournament=True)
    assert code(state, Role.SYSTEM, PlayMove("7g7e")) is None
    over, events = apply(state, PlayMove("7g7e"), 1.0)
    assert over.outcome is not None
    assert over.outcome.termination is Termination.ILLEGAL_MOVE
    assert over.outcome.winner == W
    assert isinstance(events[-1], GameEnded)
    assert over.ply == 0
    garbled, _ = apply(state, PlayMove("hello"), 1.0)
    assert garbled.outcome is not None
    assert garbled.outcome.termination is Termination.ILLEGAL_MOVE
    assert "hello" in garbled.outcome.detail
    failed, _ = apply(state, Declare(), 1.0)
    assert failed.outcome is not None
    assert failed.outcome.termination is Termination.ILLEGAL_MOVE


def test_checkmate_ends_and_a_take_back_reopens_against_the_computer() -> None:
    state = playing(Mode.COMPUTER, engines=(False, True), start_sfen=MATE_IN_ONE)
    state, events = apply(state, PlayMove("G*5b"), 2.0)
    assert state.status is Status.OVER
    assert state.outcome is not None
    assert state.outcome.termination is Termination.CHECKMATE
    assert state.outcome.winner == B
    assert isinstance(events[-1], GameEnded)
    assert state.clock.running is None
    assert permissions(state, Role.BLACK)["undo"]
    assert not permissions(state, Role.BLACK)["move"]
    state, events = apply(state, Undo(ply=1), 3.0)
    assert events[0] == MovesTakenBack(1, 0)
    assert state.status is Status.PLAYING
    assert state.outcome is None
    assert state.clock.running == B


def test_take_back_against_the_computer_removes_the_reply_too() -> None:
    state = playing(Mode.COMPUTER, engines=(False, True), clock=Clock(TimeControl.of(60)))
    assert code(state, Role.BLACK, Undo()) == "nothing_to_undo"
    state = run(state, PlayMove("7g7f"))
    assert code(state, Role.BLACK, Undo()) is None  # the engine is thinking: only the human's move
    state = run(state, PlayMove("3c3d"), now=2.0)
    state, events = apply(state, Undo(), 5.0)
    assert events[0] == MovesTakenBack(2, 0)
    assert state.ply == 0
    assert state.clock.running == B
    assert state.clock.since == 5.0
    # The clocks keep what they had (sente's 3 s before asking for the take-back charged).
    assert state.clock.remaining == (timedelta(seconds=56), timedelta(seconds=59))


def test_local_take_back_is_one_move() -> None:
    state = run(playing(Mode.LOCAL), PlayMove("7g7f"), PlayMove("3c3d"))
    state, events = apply(state, Undo(), 2.0)
    assert events[0] == MovesTakenBack(1, 1)


def test_a_friend_asks_to_take_back_and_the_opponent_agrees() -> None:
    state = run(playing(Mode.FRIEND, clock=Clock(TimeControl.of(60))), PlayMove("7g7f"), now=2.0)
    assert code(state, Role.WHITE, Undo()) == "nothing_to_undo"  # gote has no move to take back
    state, events = apply(state, Undo(color=B), 3.0)
    assert events == [TakebackProposed(B)]
    assert state.takeback_offer == B
    assert state.ply == 1  # nothing is taken back before the opponent agrees
    assert code(state, Role.BLACK, Undo()) == "busy"
    assert permissions(state, Role.WHITE)["undo"]
    assert permissions(state, Role.WHITE)["decline_undo"]
    assert GameState.from_dict(state.to_dict()).takeback_offer == B  # a stored request survives a restart
    state, events = apply(state, Undo(color=W), 5.0)  # gote agrees
    assert events[0] == MovesTakenBack(1, 0)
    assert (state.ply, state.turn, state.takeback_offer) == (0, B, None)
    # The clocks keep what they had (sente's 2 s, gote's 3 s while deciding); sente's turn begins afresh.
    assert state.clock.remaining == (timedelta(seconds=58), timedelta(seconds=57))
    assert (state.clock.running, state.clock.since) == (B, 5.0)


def test_a_take_back_after_the_reply_removes_both_moves() -> None:
    state = run(playing(Mode.FRIEND), PlayMove("7g7f"), PlayMove("3c3d"), Undo(color=B))
    state, events = apply(state, Undo(color=W), 2.0)
    assert events[0] == MovesTakenBack(2, 0)


def test_a_take_back_request_is_declined_withdrawn_or_answered_by_a_move() -> None:
    asked = run(playing(Mode.FRIEND), PlayMove("7g7f"), Undo(color=B))
    declined, events = apply(asked, DeclineTakeback(color=W), 2.0)
    assert events == [TakebackDeclined(W)]
    assert (declined.takeback_offer, declined.ply) == (None, 1)
    withdrawn, _ = apply(asked, DeclineTakeback(color=B), 2.0)
    assert withdrawn.takeback_offer is None
    answered = run(asked, PlayMove("3c3d"))
    assert answered.takeback_offer is None
    assert code(answered, Role.WHITE, DeclineTakeback()) == "nothing_to_decline"
    assert code(run(asked, Resign(W)), Role.WHITE, Undo()) == "game_over"


def test_no_take_back_after_a_resignation() -> None:
    state = run(playing(Mode.COMPUTER, engines=(False, True)), PlayMove("7g7f"), Resign(B))
    assert code(state, Role.BLACK, Undo()) == "game_over"


def test_resign_names_the_loser() -> None:
    state = playing()
    over, _ = apply(state, Resign(W), 1.0)
    assert over.outcome is not None
    assert over.outcome.winner == B
    assert over.outcome.termination is Termination.RESIGNATION
    # A player may resign out of turn, for its own side only.
    assert code(state, Role.WHITE, Resign()) is None
    assert code(state, Role.WHITE, Resign(B)) == "not_your_turn"


def test_resigning_while_waiting_cancels() -> None:
    state = GameState.new(mode=Mode.FRIEND, waiting=True)
    over, _ = apply(state, Resign(B), 1.0)
    assert over.outcome is not None
    assert over.outcome.termination is Termination.ABANDONED
    assert over.outcome.winner is None
    assert over.outcome.result() == "*"


def test_start_begins_the_clock() -> None:
    state = GameState.new(mode=Mode.FRIEND, waiting=True, clock=Clock(TimeControl.of(30)))
    assert state.clock.running is None
    started, events = apply(state, Start(), 100.0)
    assert isinstance(events[0], GameStarted)
    assert started.status is Status.PLAYING
    assert started.clock.running == B
    assert started.clock.deadline() == 130.0


def test_declaration() -> None:
    state = playing(start_sfen=DECLARABLE)
    assert code(state, Role.BLACK, Declare()) is None
    assert permissions(state, Role.BLACK)["declare"]
    assert code(state, Role.WHITE, Declare()) == "not_your_turn"
    over, _ = apply(state, Declare(), 1.0)
    assert over.outcome is not None
    assert over.outcome.termination is Termination.ENTERING_KING
    assert over.outcome.winner == B
    refused = allowed(playing(), Role.BLACK, Declare())
    assert refused is not None
    assert refused.code == "cannot_declare"
    assert refused.params["reason"]


def test_impasse_needs_both_friends() -> None:
    state = playing(Mode.FRIEND, start_sfen=DECLARABLE)
    assert code(state, Role.WHITE, ImpasseAgreement()) is None  # out of turn too
    proposed, events = apply(state, ImpasseAgreement(W), 1.0)
    assert events == [ImpasseProposed(W)]
    assert proposed.impasse_offer == W
    assert proposed.status is Status.PLAYING
    assert code(proposed, Role.WHITE, ImpasseAgreement()) == "busy"
    over, events = apply(proposed, ImpasseAgreement(B), 2.0)
    assert over.outcome is not None
    assert over.outcome.termination is Termination.IMPASSE
    assert isinstance(events[-1], GameEnded)
    # Any move withdraws the proposal.
    moved = run(proposed, PlayMove("5a4b"))
    assert moved.impasse_offer is None


def test_impasse_at_once_against_the_computer_and_never_in_matches() -> None:
    state = playing(Mode.COMPUTER, engines=(False, True), start_sfen=DECLARABLE)
    over, _ = apply(state, ImpasseAgreement(B), 1.0)
    assert over.outcome is not None
    assert over.outcome.termination is Termination.IMPASSE
    match = playing(Mode.MATCH, engines=(True, True), start_sfen=DECLARABLE)
    assert code(match, Role.BLACK, ImpasseAgreement()) == "not_allowed"


def test_flag_fall() -> None:
    state = playing(clock=Clock(TimeControl.of(0, byoyomi=10)))
    with pytest.raises(RefusedError) as info:
        apply(state, FlagFall(), 9.0)
    assert info.value.code == "not_allowed"
    over, events = apply(state, FlagFall(), 10.0)
    assert over.outcome is not None
    assert over.outcome.termination is Termination.TIME_FORFEIT
    assert over.outcome.winner == W
    assert over.clock.running is None
    assert isinstance(events[-1], GameEnded)


def test_a_late_move_loses_on_time_instead() -> None:
    state = playing(clock=Clock(TimeControl.of(5, byoyomi=5)))
    over, events = apply(state, PlayMove("7g7f"), 10.0)
    assert over.ply == 0
    assert over.outcome is not None
    assert over.outcome.termination is Termination.TIME_FORFEIT
    assert not any(isinstance(e, MovePlayed) for e in events)
    late, _ = apply(playing(start_sfen=DECLARABLE, clock=Clock(TimeControl.of(1))), Declare(), 2.0)
    assert late.outcome is not None
    assert late.outcome.termination is Termination.TIME_FORFEIT


def test_engine_failure_loses_for_that_side() -> None:
    moved = run(playing(Mode.COMPUTER, engines=(False, True)), PlayMove("7g7f"))
    over, events = apply(moved, EngineFailure(W, "crashed"), 2.0)
    assert over.outcome is not None
    assert (over.outcome.termination, over.outcome.winner) == (Termination.ABANDONED, B)
    assert over.outcome.detail == "gote: crashed"
    assert over.outcome.result() == "1-0"
    assert isinstance(events[-1], GameEnded)


def test_abandon() -> None:
    over, _ = apply(playing(Mode.LOCAL), Abandon("quit"), 1.0)
    assert over.outcome is not None
    assert over.outcome.winner is None
    assert over.outcome.detail == "quit"
    assert code(playing(Mode.LOCAL), Role.BOTH, Abandon()) is None


def test_max_moves_and_repetition_end_the_game() -> None:
    state = playing(max_moves=2)
    state = run(state, PlayMove("7g7f"), PlayMove("3c3d"))
    assert state.outcome is not None
    assert state.outcome.termination is Termination.MAX_MOVES
    shuffle = [PlayMove(u) for u in ("5i4h", "5a4b", "4h5i", "4b5a")] * 3
    state = run(playing(), *shuffle)
    assert state.outcome is not None
    assert state.outcome.termination is Termination.REPETITION


def test_engine_seats_do_not_take_human_moves() -> None:
    state = playing(Mode.COMPUTER, engines=(True, False))
    assert code(state, Role.BLACK, PlayMove("7g7f")) == "not_your_turn"
    assert code(state, Role.SYSTEM, PlayMove("7g7f")) is None
    assert permissions(state, Role.WHITE) == {
        "move": False, "resign": True, "undo": False, "decline_undo": False, "declare": False, "impasse": False,
        "abandon": True,
    }
    assert not any(permissions(state, Role.SPECTATOR).values())


def test_evolve_rebuilds_the_position_when_its_rules_change() -> None:
    state = playing()
    state.board()  # cached, not in tournament mode
    adjudicated = evolve(state, tournament=True)
    over, _ = apply(adjudicated, PlayMove("7g7e"), 1.0)
    assert over.outcome is not None
    assert over.outcome.termination is Termination.ILLEGAL_MOVE


def test_a_24_point_declaration_by_a_person_is_a_draw_as_by_an_engine() -> None:
    # Issue "One player, one stored game state", bug 4: 24-30 points under the 24-point rule were
    # refused for a person with an empty reason, while an engine's declaration drew.
    from shogiban.outcome import EnteringKingRule

    for engines in ((False, False), (True, False)):
        state = playing(Mode.COMPUTER if engines[0] else Mode.LOCAL, engines=engines, start_sfen=DECLARABLE,
                        rule=EnteringKingRule.POINTS_24)
        assert code(state, Role.SYSTEM if engines[0] else Role.BOTH, Declare()) is None
        over, _ = apply(state, Declare(), 1.0)
        assert over.outcome is not None
        assert over.outcome.termination is Termination.ENTERING_KING
        assert over.outcome.winner is None


def test_a_failed_declaration_names_the_unmet_condition_by_its_code() -> None:
    refused = allowed(playing(), Role.BLACK, Declare())
    assert refused is not None
    assert refused.code == "cannot_declare"
    assert refused.params["reason"] == "king_not_in_camp"
    assert "not in the enemy camp" in refused.message


def test_an_engine_decision_is_adjudicated_without_replaying_the_game() -> None:
    # The review: adjudication flipped `tournament` on and off, replaying the whole game twice per
    # engine move.  apply(..., adjudicate=True) judges a foul as a loss on a copy of the position.
    state = run(playing(Mode.COMPUTER, engines=(False, True)), PlayMove("7g7f"))
    following, _ = apply(state, PlayMove("3c3d"), 2.0, adjudicate=True)
    assert following.tournament is False
    assert following._cached_board is not None  # the position carried over, not rebuilt
    fouled, _ = apply(state, PlayMove("5a5e"), 2.0, adjudicate=True)
    assert fouled.outcome is not None
    assert fouled.outcome.termination is Termination.ILLEGAL_MOVE
    assert fouled.outcome.detail == "gote: 5a5e (a king on 5a cannot move to 5e)"
    assert code(state, Role.WHITE, PlayMove("5a5e")) is not None  # a person's foul is still refused
    failed, _ = apply(state, Declare(), 2.0, adjudicate=True)
    assert failed.outcome is not None
    assert failed.outcome.termination is Termination.ILLEGAL_MOVE
