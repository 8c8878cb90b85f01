"""The evaluation: incremental updates match a full recount; symmetry; hand pieces count more."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shogiban import Board
from shogiban.bitboard import KING8
from shogiban.engine.evaluate import HAND, MATERIAL, attacks_near, evaluate, full_score, king_danger, move_delta


def _mirror(sfen: str) -> str:
    """The same position with colours swapped and the board rotated."""
    board = Board(sfen)
    rows = []
    for r in range(9):
        cells = []
        for c in range(9):
            piece = board._board[(8 - r) * 9 + (8 - c)]
            cells.append(piece ^ 16 if piece else 0)
        rows.append(cells)
    mirrored = Board(None)
    for r, cells in enumerate(rows):
        for c, piece in enumerate(cells):
            if piece:
                mirrored._put(r * 9 + c, piece)
    mirrored._hands = [board._hands[1][:], board._hands[0][:]]
    mirrored._turn = board._turn ^ 1
    mirrored._reset_history()
    return mirrored.sfen()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 120))
def test_incremental_score_matches_full_recount(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = Board()
    score = full_score(board)
    scores = [score]
    for _ in range(plies):
        codes = board._legal_codes()
        if not codes:
            break
        code = rng.choice(codes)
        delta = move_delta(board, code)
        board._push(code)
        score += delta
        assert score == full_score(board), board.sfen()
        scores.append(score)
    while board._stack:
        board._pop()
        scores.pop()
        assert scores[-1] == full_score(board)


def test_start_position_is_balanced() -> None:
    board = Board()
    assert full_score(board) == 0
    # Only the tempo bonus separates the two sides to move.
    black = evaluate(board)
    board._turn = 1
    assert evaluate(board) == black


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_colour_mirror_gives_the_same_score(seed: int) -> None:
    rng = random.Random(seed)
    board = Board()
    for _ in range(rng.randint(0, 80)):
        codes = board._legal_codes()
        if not codes:
            break
        board._push(rng.choice(codes))
    mirrored = Board(_mirror(board.sfen()), lenient=True)
    assert evaluate(mirrored) == evaluate(board)


def test_a_piece_in_hand_is_worth_more_than_on_the_board() -> None:
    for pt in range(1, 8):
        assert HAND[0][pt][1] > MATERIAL[pt]
        assert HAND[1][pt][1] == -HAND[0][pt][1]


def test_material_advantage_shows() -> None:
    even = evaluate(Board())
    rook_up = evaluate(Board("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1"))
    assert rook_up > even + 900


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 200))
def test_attacks_near_the_king_match_the_core(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = Board()
    for _ in range(plies):
        codes = board._legal_codes()
        if not codes:
            break
        board._push(rng.choice(codes))
    occupied = board._occ[0] | board._occ[1]
    for color in (0, 1):
        k = board._kings[color]
        expected = 0
        for sq in range(81):
            if KING8[k] >> sq & 1 and board._is_attacked(sq, color ^ 1, occupied):
                expected |= 1 << sq
        assert attacks_near(board, color ^ 1, k) == expected, board.sfen()


def test_an_attacked_king_is_in_danger() -> None:
    safe = Board("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
    assert king_danger(safe, 0) == 0
    # Gote's dragon next to sente's bare king, gote holding golds: real danger.
    exposed = Board("4k4/9/9/9/9/9/9/3+r5/4K4 b 2g 1")
    assert king_danger(exposed, 0) > 300
    assert king_danger(exposed, 1) == 0
