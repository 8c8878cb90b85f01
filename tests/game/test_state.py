"""The game state: construction, reading, storage."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from shogiban.errors import InvalidSfenError
from shogiban.game import (
    Clock,
    GameDataError,
    GameState,
    ImpasseAgreement,
    Mode,
    PlayMove,
    Resign,
    Role,
    Status,
    TimeControl,
    Timing,
    apply,
)
from shogiban.outcome import EnteringKingRule
from shogiban.pieces import Color

DECLARABLE = "+L+NSGKGS+N+L/1R5B1/PPPPPPPPP/9/9/9/9/9/4k4 b P 1"


def test_new_starts_the_clock_unless_waiting() -> None:
    state = GameState.new(clock=Clock(TimeControl.of(60)), now=5.0)
    assert state.clock.running == Color.BLACK
    assert state.clock.since == 5.0
    waiting = GameState.new(waiting=True, clock=Clock(TimeControl.of(60)))
    assert waiting.status is Status.WAITING
    assert waiting.clock.running is None
    with pytest.raises(InvalidSfenError):
        GameState.new(start_sfen="nonsense")


def test_board_is_a_copy() -> None:
    state, _ = apply(GameState.new(), PlayMove("7g7f"), 1.0)
    board = state.board()
    board.push(board.parse_usi("3c3d"))
    assert state.board().ply == 1
    assert state.turn == Color.WHITE


def test_round_trip_through_json() -> None:
    state = GameState.new(mode=Mode.FRIEND, start_sfen=DECLARABLE, rule=EnteringKingRule.POINTS_24, max_moves=200,
                          clock=Clock(TimeControl.of(60, byoyomi=10, periods=2), timing=Timing.CSA), now=0.0)
    state, _ = apply(state, PlayMove("5a4b"), 3.5)
    state, _ = apply(state, ImpasseAgreement(Color.BLACK), 4.0)
    data = json.loads(json.dumps(state.to_dict()))
    restored = GameState.from_dict(data)
    assert restored == state
    assert restored.impasse_offer == Color.BLACK
    over, _ = apply(state, Resign(Color.WHITE), 9.0)
    assert GameState.from_dict(json.loads(json.dumps(over.to_dict()))) == over
    computer = replace(GameState.new(), mode=Mode.COMPUTER, engines=(False, True))
    assert GameState.from_dict(computer.to_dict()).engines == (False, True)


@pytest.mark.parametrize("damage", [
    {"moves": [["7g7e", 1.0]]}, {"moves": [["xx", 1.0]]}, {"mode": "chaos"}, {"status": "paused"},
    {"engines": [True]}, {"impasse_offer": 2}, {"max_moves": 0}, {"clock": {"remaining": [1]}},
    {"outcome": {"termination": "boredom"}}, {"start_sfen": "bad"}, {"moves": [["7g7f", "x"]]},
])
def test_damaged_state(damage: dict[str, object]) -> None:
    data = GameState.new().to_dict() | damage
    with pytest.raises(GameDataError) as info:
        GameState.from_dict(data)
    assert info.value.code == "bad_game_data"
    with pytest.raises(GameDataError):
        GameState.from_dict([1, 2])


def test_roles() -> None:
    assert Role.of(Color.WHITE) is Role.WHITE
    assert Role.BOTH.covers(Color.WHITE)
    assert Role.SYSTEM.covers(Color.BLACK)
    assert not Role.BLACK.covers(Color.WHITE)
    assert not Role.SPECTATOR.covers(Color.BLACK)
