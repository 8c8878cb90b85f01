"""The quiescence move generator agrees with the core's legal moves."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shogiban import Board
from shogiban.bitboard import ZONE
from shogiban.engine.movegen import capture_codes, may_give_check
from shogiban.move import move_usi


def _expected(board: Board) -> set[int]:
    """Legal captures and pawn promotions, dropping the non-promotions of pawns, bishops and
    rooks when the promotion is there."""
    codes = set(board._legal_codes())
    squares = board._board
    zone = ZONE[board._turn]
    wanted = set()
    for code in codes:
        to, frm = code & 127, code >> 7 & 127
        if frm >= 81:
            continue
        piece = squares[frm] & 15
        promotes = bool(code >> 14)
        if not squares[to] and not (piece == 1 and promotes):
            continue
        if piece in (1, 5, 6) and not promotes and (code | 1 << 14) in codes:
            continue
        if piece == 1 and not promotes and not squares[to] and zone >> to & 1:
            continue
        wanted.add(code)
    return wanted


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 200))
def test_captures_match_the_legal_moves(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = Board()
    for _ in range(plies):
        codes = board._legal_codes()
        if not codes:
            break
        board._push(rng.choice(codes))
    if board._in_check():
        return
    got = capture_codes(board)
    assert len(got) == len(set(got))
    assert set(got) == _expected(board), board.sfen()


def test_pinned_piece_and_king_captures() -> None:
    # The gold on 5h is pinned by the rook on 5g: it may take the rook, not the pawn on 4g; the
    # king may not take the pawn on 6h, which the silver on 7g defends.
    board = Board("4k4/9/9/9/9/9/2s1rp3/3pG4/4K4 b - 1")
    names = {move_usi(c) for c in capture_codes(board)}
    assert "5h5g" in names
    assert "5h4g" not in names
    assert "5i6h" not in names
    assert names == {move_usi(c) for c in _expected(board)}


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 200))
def test_may_give_check_never_misses_a_check(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = Board()
    for _ in range(plies):
        codes = board._legal_codes()
        if not codes:
            break
        board._push(rng.choice(codes))
    for code in board._legal_codes():
        board._push(code)
        checks = board._in_check()
        board._pop()
        if checks:
            assert may_give_check(board, code), (board.sfen(), move_usi(code))


def test_pinned_pawn_promotes_along_its_line() -> None:
    # The pawn on 7d is pinned by the rook on 7b against the king on 7f, yet 7d7c+ is legal.
    board = Board("ln1s5/p1rGSps1l/g2P4n/lgP2kN+bp/Pp2p1gPP/L1K5R/5P1p1/6+b2/1P4P+n1 b 4Ps 195")
    names = {move_usi(c) for c in capture_codes(board)}
    assert "7d7c+" in names
    assert set(capture_codes(board)) == _expected(board)
