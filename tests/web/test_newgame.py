"""Checking new-game requests."""

from __future__ import annotations

import random

import pytest

from shogiban import Color, EnteringKingRule
from shogiban.handicaps import HANDICAPS
from shogiban.web.newgame import SetupError, parse_new_game


def test_defaults() -> None:
    setup = parse_new_game({})
    assert setup.mode == "computer"
    assert setup.color == Color.BLACK
    assert setup.level == 1
    assert setup.handicap is None
    assert setup.rule is EnteringKingRule.POINTS_27
    assert not setup.time_control.enabled


@pytest.mark.parametrize("handicap", [h for h in HANDICAPS if not h.is_even], ids=lambda h: h.english)
def test_every_handicap_starts_with_the_giver_to_move(handicap) -> None:  # type: ignore[no-untyped-def]
    setup = parse_new_game({"handicap": handicap.japanese})
    assert setup.handicap == handicap
    assert setup.board().turn == Color.WHITE
    assert setup.rule is EnteringKingRule.POINTS_27_HANDICAP
    assert parse_new_game({"handicap": handicap.english}).handicap == handicap


def test_random_color_uses_both_sides() -> None:
    rng = random.Random(1)
    colors = {parse_new_game({"color": "random"}, rng=rng).color for _ in range(20)}
    assert colors == {Color.BLACK, Color.WHITE}


def test_start_moves_are_checked_and_kept() -> None:
    setup = parse_new_game({"moves": ["7g7f", "3c3d"], "level": "4"})
    assert setup.moves == ("7g7f", "3c3d")
    assert setup.level == 4
    assert setup.board().ply == 2
    with pytest.raises(SetupError, match="move 2"):
        parse_new_game({"moves": ["7g7f", "7g7f"]})


def test_a_finished_position_is_refused() -> None:
    with pytest.raises(SetupError, match="already over"):
        parse_new_game({"sfen": "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"})


def test_usi_opponent_needs_an_engine_command() -> None:
    with pytest.raises(SetupError, match="--engine"):
        parse_new_game({"opponent": "usi"})
    assert parse_new_game({"opponent": "usi"}, usi_available=True).opponent == "usi"


@pytest.mark.parametrize("body", [
    [], "x", {"mode": 1}, {"level": 0}, {"level": "nine"}, {"color": 1}, {"name": "x" * 41}, {"name": 5},
    {"sfen": 5}, {"sfen": "9/9/9 b - 1"}, {"moves": "7g7f"}, {"moves": [1]}, {"handicap": 3},
])
def test_invalid_requests(body: object) -> None:
    with pytest.raises(SetupError):
        parse_new_game(body)
