from __future__ import annotations

import pytest

from shogiban import STARTING_SFEN, Board, InvalidSfenError
from shogiban.sfen import make_sfen, parse_sfen

ROMSTAD = "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124"


def test_start_position_round_trips() -> None:
    assert Board().sfen() == STARTING_SFEN
    assert Board(STARTING_SFEN).sfen() == STARTING_SFEN


def test_romstad_example() -> None:
    board = Board(ROMSTAD)
    assert board.sfen() == ROMSTAD
    assert board.move_number == 124
    assert board.turn == 1


@pytest.mark.parametrize(("given", "canonical"), [
    # any hand order, repeated letters, multi-digit counts, all canonicalised to R B G S N L P
    ("4k4/9/9/9/9/9/9/9/4K4 b pPpPgSb 1", "4k4/9/9/9/9/9/9/9/4K4 b S2Pbg2p 1"),
    ("4k4/9/9/9/9/9/9/9/4K4 b 10p8P 1", "4k4/9/9/9/9/9/9/9/4K4 b 8P10p 1"),
    ("4k4/9/9/9/9/9/9/9/4K4 b pppp 1", "4k4/9/9/9/9/9/9/9/4K4 b 4p 1"),
    # missing move number, runs of whitespace, URL underscores, a leading 'sfen'
    ("4k4/9/9/9/9/9/9/9/4K4 w -", "4k4/9/9/9/9/9/9/9/4K4 w - 1"),
    ("  4k4/9/9/9/9/9/9/9/4K4   b  -   7 ", "4k4/9/9/9/9/9/9/9/4K4 b - 7"),
    ("4k4/9/9/9/9/9/9/9/4K4_b_-_3", "4k4/9/9/9/9/9/9/9/4K4 b - 3"),
    ("sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1", "4k4/9/9/9/9/9/9/9/4K4 b - 1"),
    ("startpos", STARTING_SFEN),
])
def test_lenient_reading_canonical_writing(given: str, canonical: str) -> None:
    assert Board(given).sfen() == canonical


@pytest.mark.parametrize(("bad", "reason"), [
    ("", "expected 3 or 4 fields"),
    ("4k4/9/9/9/9/9/9/9 b - 1", "8 ranks"),
    ("4k4/9/9/9/9/9/9/9/4K5 b - 1", "has 10 squares"),
    ("4k3/9/9/9/9/9/9/9/4K4 b - 1", "has 8 squares"),
    ("4k4/9/9/9/9/9/9/9/4X4 b - 1", "unexpected 'X'"),
    ("4k4/9/9/9/9/9/9/9/3+GK4 b - 1", "do not promote"),
    ("4k4/9/9/9/9/9/9/9/4K3+ b - 1", "at the end of rank 9"),
    ("4k4/9/9/9/9/9/9/9/4K4 x - 1", "side to move"),
    ("4k4/9/9/9/9/9/9/9/4K4 b K 1", "cannot be in a hand"),
    ("4k4/9/9/9/9/9/9/9/4K4 b 3 1", "has no piece"),
    ("4k4/9/9/9/9/9/9/9/4K4 b - x", "not a number"),
    ("4k4/9/9/9/9/9/9/9/4K4 b - 1 extra", "expected 3 or 4 fields"),
])
def test_malformed_sfen_says_why(bad: str, reason: str) -> None:
    with pytest.raises(InvalidSfenError, match=reason) as info:
        Board(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize(("impossible", "reason"), [
    ("4k4/9/9/9/9/9/9/9/3KK4 b - 1", "more than one king"),
    ("P3k4/9/9/9/9/9/9/9/4K4 b - 1", "pawn on 9a could never move"),
    ("4k4/N8/9/9/9/9/9/9/4K4 b - 1", "knight on 9b could never move"),
    ("4k4/9/9/9/9/9/9/9/l3K4 b - 1", "lance on 9i could never move"),
    ("4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1", "two sente pawns on file 5"),
    ("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "19 pawns"),
    ("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", "gote is in check but it is sente's turn"),
])
def test_impossible_positions_rejected_unless_lenient(impossible: str, reason: str) -> None:
    with pytest.raises(InvalidSfenError, match=reason):
        Board(impossible)
    board = Board(impossible, lenient=True)
    assert not board.is_valid()


def test_tsume_position_without_attacker_king_is_accepted() -> None:
    board = Board("6k2/9/6P2/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")
    assert board.king_square(0) is None
    assert board.is_valid()


def test_promoted_pawns_do_not_make_nifu() -> None:
    assert Board("4k4/9/9/9/4+P4/4P4/9/9/4K4 b - 1").is_valid()


def test_parse_and_make_are_inverse() -> None:
    parts = parse_sfen(ROMSTAD)
    assert make_sfen(parts.board, parts.turn, parts.hands, parts.move_number) == ROMSTAD
    assert make_sfen(parts.board, parts.turn, parts.hands, None) == ROMSTAD.rsplit(" ", 1)[0]


def test_non_string_rejected() -> None:
    with pytest.raises(InvalidSfenError, match="not a string"):
        parse_sfen(123)  # type: ignore[arg-type]
