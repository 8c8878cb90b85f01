"""Property tests on random positions: SFEN round trips, push/pop, and move generation checked
against an independent slow generator and against cshogi and python-shogi (tests only)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from naive_rules import naive_legal_moves
from shogiban import Board
from shogiban.handicaps import HANDICAPS
from shogiban.move import MOVES


@st.composite
def positions(draw: st.DrawFn) -> Board:
    """A position reached by random play (half of the time preferring captures, so hands fill)."""
    start = draw(st.sampled_from([h.sfen for h in HANDICAPS]))
    plies = draw(st.integers(0, 160))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    board = Board(start)
    for _ in range(plies):
        codes = board._legal_codes()
        if not codes:
            break
        captures = [c for c in codes if c >> 7 & 127 < 81 and board._board[c & 127]]
        board._push(rng.choice(captures if captures and rng.random() < 0.5 else codes))
    return board


def state(board: Board) -> tuple[object, ...]:
    return (board._board[:], board._bb[:], board._occ[:], board._kings[:], [h[:] for h in board._hands],
            board._turn, board._hash, dict(board._rep), len(board._stack))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_sfen_round_trip(board: Board) -> None:
    again = Board(board.sfen())
    assert again.sfen() == board.sfen()
    assert again.zobrist_hash() == board.zobrist_hash() == board._compute_hash()


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_push_pop_restores_exactly(board: Board) -> None:
    before = state(board)
    for code in board._legal_codes():
        board._push(code)
        assert board._hash == board._compute_hash()
        board._pop()
        assert state(board) == before


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_moves_match_an_independent_generator(board: Board) -> None:
    ours = list(board.legal_moves)
    assert len(ours) == len(set(ours))
    assert set(ours) == naive_legal_moves(board)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_moves_match_cshogi(board: Board) -> None:
    cshogi = pytest.importorskip("cshogi")
    theirs = cshogi.Board(board.sfen())
    assert {m.usi() for m in board.legal_moves} == {cshogi.move_to_usi(m) for m in theirs.legal_moves}


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_moves_match_python_shogi(board: Board) -> None:
    shogi = pytest.importorskip("shogi")
    theirs = {m.usi() for m in shogi.Board(board.sfen()).legal_moves}
    ours = {m.usi() for m in board.legal_moves}
    # python-shogi accepts a pawn-drop mate when the only capturer is pinned; everything else agrees.
    for usi in theirs - ours:
        assert board.is_uchifuzume(MOVES[0].from_usi(usi))  # type: ignore[union-attr]
    assert ours <= theirs


def test_known_python_shogi_pawn_drop_bug_is_ours_to_beat() -> None:
    shogi = pytest.importorskip("shogi")
    sfen = "4R2gk/6G2/9/7N1/9/9/9/9/K8 b P 1"
    assert "P*1b" in {m.usi() for m in shogi.Board(sfen).legal_moves}
    assert "P*1b" not in {m.usi() for m in Board(sfen).legal_moves}


BENCHMARK_POSITIONS = [line for line in
                       (__import__("pathlib").Path(__file__).parent.parent / "benchmarks/positions.sfen")
                       .read_text().splitlines() if line]


def test_benchmark_positions_match_cshogi() -> None:
    cshogi = pytest.importorskip("cshogi")
    for sfen in BENCHMARK_POSITIONS:
        ours = {m.usi() for m in Board(sfen).legal_moves}
        assert ours == {cshogi.move_to_usi(m) for m in cshogi.Board(sfen).legal_moves}, sfen


@pytest.mark.slow
def test_benchmark_positions_match_the_independent_generator() -> None:
    for sfen in BENCHMARK_POSITIONS[::4]:
        board = Board(sfen)
        assert set(board.legal_moves) == naive_legal_moves(board), sfen
