"""Threats the search must see with either side to move: piece values by piece type, drops that
fork a rook and a gold, and the score of a position against the score after its best move.

The positions come from the 2025 王位戦 game 6 (藤井聡太 - 永瀬拓矢), where an analysis at depth 6
once called plies 29 to 36 blunders: with gote to move the engine "won" material with B*3i
(a gold was valued as a rook and a bishop as a gold), with sente to move it did not see it.
"""

from __future__ import annotations

import pytest

from shogiban import Board, Move
from shogiban.engine import BuiltinSearch
from shogiban.engine.evaluate import HAND_FIRST, MATERIAL, evaluate
from shogiban.engine.search import threatens
from shogiban.engines import Limit
from shogiban.pieces import (
    BISHOP,
    GOLD,
    KNIGHT,
    LANCE,
    PAWN,
    PROM_BISHOP,
    PROM_PAWN,
    PROM_ROOK,
    ROOK,
    SILVER,
)

#: Plies 1 to 38 of the game (USI).
_OUI_USI = (
    "2g2f 8c8d 2f2e 8d8e 7g7f 4a3b 8h7g 3c3d 7i6h 2b7g+ 6h7g 3a2b 1g1f 1c1d 4g4f 5a4b 3i4h 7a6b "
    "6i7h 2b3c 3g3f 6c6d 9g9f 9c9d 2i3g 6b6c 4h4g 7c7d 4i4h 8a7c 5i6h 8b8a 4g5f 6a6b 6g6f 6c5d "
    "2h2i 4b5b"
)
OUI_MOVES = tuple(_OUI_USI.split())
#: After 29. 4i4h: B*3i attacks the rook on 2h and the gold on 4h.
FORK = "ln1g3nl/1r3kg2/3sppsp1/p1pp2p1p/1p5P1/P1P2PP1P/1PSPPSN2/2G2G1R1/LN2K3L w Bb 2"


def _board(plies: int) -> Board:
    board = Board()
    for usi in OUI_MOVES[:plies]:
        board.push_usi(usi)
    return board


def _score(board: Board, depth: int) -> tuple[int, Move]:
    """The side to move's score (cp; a mate counts 30000) and move at *depth*, from a fresh engine."""
    result = BuiltinSearch(8, seed=0, hash_mb=8).search(board, Limit(depth=depth))
    score = result.info["score"].relative
    assert result.move is not None
    if score.mate is not None:
        return (30_000 if score.mate > 0 else -30_000), result.move
    assert score.cp is not None
    return score.cp, result.move


def test_piece_values_follow_the_piece_types() -> None:
    # The tables are indexed by PieceType (bishop 5, rook 6, gold 7): a rook is worth more than a
    # bishop, a bishop more than a gold, on the board and in hand.
    assert MATERIAL[ROOK] > MATERIAL[BISHOP] > MATERIAL[GOLD] > MATERIAL[SILVER] > MATERIAL[KNIGHT]
    assert MATERIAL[KNIGHT] > MATERIAL[LANCE] > MATERIAL[PAWN]
    assert MATERIAL[PROM_ROOK] > MATERIAL[ROOK]
    assert MATERIAL[PROM_BISHOP] > MATERIAL[BISHOP]
    assert MATERIAL[PROM_PAWN] == MATERIAL[GOLD]
    assert HAND_FIRST[ROOK] > HAND_FIRST[BISHOP] > HAND_FIRST[GOLD] > HAND_FIRST[SILVER]


def test_winning_a_bishop_for_a_gold_shows_in_the_static_score() -> None:
    # B*3i 2h3h 3i4h+ 3h4h: sente gave a gold and took the bishop.
    board = Board(FORK)
    before = -evaluate(board)  # sente's view
    for usi in ("B*3i", "2h3h", "3i4h+", "3h4h"):
        board.push_usi(usi)
    after = -evaluate(board)
    assert after - before > 250


def test_the_bishop_fork_is_no_win_for_gote() -> None:
    board = Board(FORK)
    board.push_usi("B*3i")
    score, move = _score(board, 4)
    # Sente saves the rook with tempo (2h3h) and wins the bishop for the gold.
    assert score > 250, (score, move)


def test_threatening_moves() -> None:
    board = Board(FORK)
    assert threatens(board, Move.from_usi("B*3i").code)  # bishop on a rook (and a gold)
    assert not threatens(board, Move.from_usi("B*9e").code)  # nothing of value in its lines
    assert not threatens(board, Move.from_usi("4b4a").code)  # a king move never counts
    board = Board("4k4/9/9/9/9/4r4/9/9/4K4 b G 1")
    assert threatens(board, Move.from_usi("G*5g").code)  # a gold on a rook
    board = Board("4k4/9/9/9/9/4p4/9/9/4K4 b G 1")
    assert not threatens(board, Move.from_usi("G*5g").code)  # a gold on a pawn


@pytest.mark.parametrize("plies", [28, 29, 30, 31, 32, 33, 34, 35, 36])
def test_score_before_and_after_the_best_move_agree(plies: int) -> None:
    # With either side to move the search sees the same threats: the score of a position and
    # the score after its best move (the other side's view, negated) differ by noise only.
    board = _board(plies)
    score, move = _score(board, 4)
    board.push(move)
    reply, _ = _score(board, 4)
    assert abs(score + reply) <= 200, (plies, move.usi(), score, -reply)
    assert abs(score) <= 300, (plies, score)  # an even middle game
