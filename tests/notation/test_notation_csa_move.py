"""CSA move text: +7776FU, the piece after the move, drops from 00."""

from __future__ import annotations

import pytest
from notation_helpers import board_from

from shogiban import Board, IllegalMoveError, InvalidMoveError, Move
from shogiban.notation.csa_move import CSA_PIECE_NAMES, CSA_PIECE_TYPES, make_csa_move, parse_csa_move


def test_examples() -> None:
    board = Board()
    assert make_csa_move(board, Move.from_usi("7g7f")) == "+7776FU"
    board.push_usi("7g7f")
    assert make_csa_move(board, Move.from_usi("3c3d")) == "-3334FU"
    board.push_usi("3c3d")
    assert make_csa_move(board, Move.from_usi("8h2b+")) == "+8822UM"
    assert parse_csa_move(board, "+8822UM") == Move.from_usi("8h2b+")
    assert parse_csa_move(board, "+8822KA") == Move.from_usi("8h2b")
    assert parse_csa_move(board, "8822UM") == Move.from_usi("8h2b+")  # the sign may be left out
    dropping = board_from("K9i k9a", "w", "b")
    assert make_csa_move(dropping, Move.from_usi("B*5e")) == "-0055KA"
    assert parse_csa_move(dropping, "-0055KA") == Move.from_usi("B*5e")
    moving_dragon = board_from("K9i k9a +R5e", "b")
    assert make_csa_move(moving_dragon, Move.from_usi("5e5d")) == "+5554RY"


def test_tables() -> None:
    assert len(CSA_PIECE_NAMES) == 14
    assert all(CSA_PIECE_TYPES[name] == pt for pt, name in CSA_PIECE_NAMES.items())


@pytest.mark.parametrize(
    "text", ["", "7776FU+", "+7776", "+7776XX", "+7706FU", "+7077FU", "+7777FU", "+0055TO", "*7776FU"]
)
def test_malformed(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_csa_move(Board(), text)
    assert repr(text) in str(info.value)


def test_illegal() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match="it is \\+'s turn") as info:
        parse_csa_move(board, "-3334FU")
    assert info.value.code == "wrong_side"
    with pytest.raises(IllegalMoveError, match="cannot become KA"):
        parse_csa_move(board, "+7776KA")
    with pytest.raises(IllegalMoveError, match="neither 7g nor 7f is in the promotion zone"):
        parse_csa_move(board, "+7776TO")
    with pytest.raises(IllegalMoveError, match="no piece of the side to move on 5e"):
        parse_csa_move(board, "+5554FU")
    with pytest.raises(IllegalMoveError, match="no bishop in hand"):
        parse_csa_move(board, "+0055KA")
    with pytest.raises(IllegalMoveError, match="cannot move"):
        parse_csa_move(board, "+7775FU")
    with pytest.raises(IllegalMoveError, match="no piece"):
        make_csa_move(board, Move.from_usi("5e5d"))
    with pytest.raises(IllegalMoveError, match="in hand"):
        make_csa_move(board, Move.from_usi("P*5e"))
