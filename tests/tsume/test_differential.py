"""The solver against a naive mate search written with the public Board API only (game rules).

The naive search tries every legal move that gives check and every legal reply, so it shares no
code with the solver's check generator, futility filter or proof-number search.
"""

from __future__ import annotations

import random

import pytest

from shogiban import Board
from shogiban.tsume import solve

from .helpers import corpus_rows


def _mates_within(board: Board, plies: int) -> bool:
    """Whether the side to move mates within *plies* (odd) by continuous checks, game rules."""
    for move in list(board.legal_moves):
        if not board.gives_check(move):
            continue
        board.push(move)
        try:
            replies = list(board.legal_moves)
            if not replies:
                return True
            if plies >= 3 and all(_after_reply(board, reply, plies - 2) for reply in replies):
                return True
        finally:
            board.pop()
    return False


def _after_reply(board: Board, reply: object, plies: int) -> bool:
    board.push(reply)  # type: ignore[arg-type]
    try:
        return _mates_within(board, plies)
    finally:
        board.pop()


def _naive_length(board: Board, limit: int) -> int | None:
    for plies in range(1, limit + 1, 2):
        if _mates_within(board, plies):
            return plies
    return None


def _positions(count: int, seed: int) -> list[str]:
    """Attacker-to-move positions near mates: corpus positions after a few random plies."""
    rows = corpus_rows()
    if not rows:
        pytest.skip("the shared tsume corpus is absent")
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        board = Board(rng.choice(rows).sfen, lenient=True)
        for _ in range(rng.randrange(0, 5)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        defender = board.turn ^ 1
        if board.king_square(defender) is None or board.is_attacked_by(board.turn, board.king_square(defender)):
            continue
        out.append(board.sfen())
    return out


#: Without the shared corpus the list is empty and pytest skips the test ("got empty parameter set").
NEAR_MATES = _positions(120, seed=3) if corpus_rows() else []


@pytest.mark.parametrize("sfen", NEAR_MATES, ids=[f"near-mate-{i}" for i in range(len(NEAR_MATES))])
def test_game_rule_lengths_agree_with_a_naive_search(sfen: str) -> None:
    board = Board(sfen, lenient=True)
    naive = _naive_length(board.copy(stack=False), 3)
    result = solve(board, conventions=False, max_length=3, timeout=60, check_unique=False)
    if naive is None:
        assert result.status in ("nomate", "unknown"), sfen
    else:
        assert (result.status, result.length) == ("mate", naive), sfen


def test_attacker_in_check_must_answer_with_a_check() -> None:
    # Sente's king is in check from the silver; taking it uncovers the rook's check on 1e, and the
    # gote king is walled in by its own knights and lance: mate in one.
    board = Board("9/9/9/7nn/R3K3k/5s1ln/9/9/9 b - 1", lenient=True)
    assert board.is_check()
    result = solve(board, timeout=30)
    assert (result.status, result.usi(), result.unique) == ("mate", "5e4f", True)
