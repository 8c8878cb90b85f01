"""The 500 lishogi games round-trip through every format: read -> write -> read gives the same
moves and the same result."""

from __future__ import annotations

from pathlib import Path

import pytest
from kifu_helpers import mainline

from shogiban.kifu import Game, read_game, read_usi, write_game
from shogiban.outcome import Termination

FAST_FORMATS = ("kif", "csa", "jkf", "usen", "usi", "sfen")
# KI2 resolves every move against the legal moves twice (writing and reading), and KIFU differs
# from KIF only in its encoding: a fifth of the games here, all of them under the slow marker.
SLOW_FORMATS = ("kifu", "ki2", "ki2u")


@pytest.fixture(scope="module")
def games(shared_data: Path) -> list[Game]:
    lines = (shared_data / "usi_games" / "lishogi_prod_500.usi").read_text(encoding="utf-8").splitlines()
    moves = [line for line in lines if line.strip() and not line.startswith("#")]
    assert len(moves) == 500
    out = []
    for line in moves:
        game = read_usi("position startpos moves " + line)
        assert not game.errors
        # Give each game an explicit result as its final position shows it, so results travel too.
        shown = game.board().outcome()
        if shown is not None:
            game.end().add_result("詰み")  # checkmate, or no legal move at all
        else:
            game.end().add_result("投了")
        out.append(game)
    return out


def _outcome(game: Game) -> tuple[object, object]:
    outcome = game.outcome()
    assert outcome is not None
    return outcome.termination, outcome.winner


def test_game_ends_are_found(games: list[Game]) -> None:
    # 199 games end with the loser unable to move: 192 checkmates and 7 without check.
    terminations = [g.outcome().termination for g in games]  # type: ignore[union-attr]
    assert terminations.count(Termination.CHECKMATE) == 192
    assert terminations.count(Termination.NO_LEGAL_MOVES) == 7


@pytest.mark.parametrize("fmt", FAST_FORMATS)
def test_500_games_round_trip(games: list[Game], fmt: str) -> None:
    _round_trip(games, fmt)


@pytest.mark.parametrize("fmt", SLOW_FORMATS)
def test_500_games_round_trip_sample(games: list[Game], fmt: str) -> None:
    _round_trip(games[::5], fmt)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", SLOW_FORMATS)
def test_500_games_round_trip_slow(games: list[Game], fmt: str) -> None:
    _round_trip(games, fmt)


def _round_trip(games: list[Game], fmt: str) -> None:
    for index, game in enumerate(games):
        data = write_game(game, fmt)
        again = read_game(data, format=fmt, **({"validate": False} if fmt == "jkf" else {}))
        assert not again.errors, (index, fmt, again.errors[:1])
        assert mainline(again) == mainline(game), (index, fmt)
        if fmt == "sfen":
            # A position list holds no result: the final position still shows every checkmate.
            if game.result is not None and game.result.kind.value == "checkmate":  # also no legal move
                assert _outcome(again) == _outcome(game), (index, fmt)
            continue
        assert _outcome(again) == _outcome(game), (index, fmt)
