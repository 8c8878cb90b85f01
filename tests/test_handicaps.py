from __future__ import annotations

import pytest

from shogiban import STARTING_SFEN, WHITE, Board, PieceType
from shogiban.handicaps import HANDICAPS, find_handicap, handicap_of_sfen
from shogiban.squares import parse_square

# (Japanese name, English name, squares removed from gote's (the giver's) side)
EXPECTED = [
    ("平手", "even", []),
    ("香落ち", "lance", ["1a"]),
    ("右香落ち", "right lance", ["9a"]),
    ("角落ち", "bishop", ["2b"]),
    ("飛車落ち", "rook", ["8b"]),
    ("飛香落ち", "rook and lance", ["8b", "1a"]),
    ("二枚落ち", "two-piece", ["8b", "2b"]),
    ("三枚落ち", "three-piece", ["8b", "2b", "9a"]),
    ("四枚落ち", "four-piece", ["8b", "2b", "1a", "9a"]),
    ("五枚落ち", "five-piece", ["8b", "2b", "1a", "9a", "8a"]),
    ("左五枚落ち", "left five-piece", ["8b", "2b", "1a", "9a", "2a"]),
    ("六枚落ち", "six-piece", ["8b", "2b", "1a", "9a", "8a", "2a"]),
    ("左七枚落ち", "left seven-piece", ["8b", "2b", "1a", "9a", "8a", "2a", "3a"]),
    ("右七枚落ち", "right seven-piece", ["8b", "2b", "1a", "9a", "8a", "2a", "7a"]),
    ("八枚落ち", "eight-piece", ["8b", "2b", "1a", "9a", "8a", "2a", "3a", "7a"]),
    ("十枚落ち", "ten-piece", ["8b", "2b", "1a", "9a", "8a", "2a", "3a", "7a", "4a", "6a"]),
]


def test_every_standard_handicap_is_listed() -> None:
    assert [(h.japanese, h.english) for h in HANDICAPS] == [(j, e) for j, e, _ in EXPECTED]


@pytest.mark.parametrize(("japanese", "english", "removed"), EXPECTED)
def test_handicap_positions(japanese: str, english: str, removed: list[str]) -> None:
    board = Board.from_handicap(japanese)
    assert Board.from_handicap(english).sfen() == board.sfen()
    even = Board()
    for sq in range(81):
        expected = None if sq in [parse_square(name) for name in removed] else even.piece_at(sq)
        assert board.piece_at(sq) == expected
    if removed:
        assert board.turn == WHITE  # the giver moves first
        assert board.legal_moves.count() > 0
        assert handicap_of_sfen(board.sfen()) == find_handicap(japanese)
    else:
        assert board.sfen() == STARTING_SFEN


def test_csa_lines_match_the_positions() -> None:
    names = {"HI": PieceType.ROOK, "KA": PieceType.BISHOP, "KY": PieceType.LANCE, "KE": PieceType.KNIGHT,
             "GI": PieceType.SILVER, "KI": PieceType.GOLD}
    for handicap in HANDICAPS:
        board = Board()
        body = handicap.csa[2:]
        for i in range(0, len(body), 4):
            square = parse_square(f"{body[i]}{'abcdefghi'[int(body[i + 1]) - 1]}")
            piece = board.piece_at(square)
            assert piece is not None
            assert piece.piece_type == names[body[i + 2:i + 4]]
            board.set_piece_at(square, None)
        assert board.sfen(move_number=False).split()[0] == handicap.sfen.split()[0]


@pytest.mark.parametrize("alias", ["LANCE", "  香落ち　", "two_piece", "two piece", "Two-Piece", "七枚落ち", "hirate"])
def test_aliases(alias: str) -> None:
    assert find_handicap(alias)


def test_unknown_handicap() -> None:
    with pytest.raises(ValueError, match="unknown handicap: 'nine-piece'"):
        find_handicap("nine-piece")
