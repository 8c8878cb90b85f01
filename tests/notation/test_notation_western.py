"""Western notation: Hosking (P-76), Hodges (P-7f) and Kitao-Kawasaki (歩-76)."""

from __future__ import annotations

import pytest
from notation_helpers import board_from

from shogiban import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move
from shogiban.notation.western import make_western, parse_western


def played(*usi: str) -> Board:
    board = Board()
    for text in usi:
        board.push_usi(text)
    return board


@pytest.mark.parametrize(
    ("board", "usi", "hosking", "hodges", "kitao"),
    [
        (Board(), "7g7f", "P-76", "P-7f", "歩-76"),
        (played("7g7f", "3c3d"), "8h2b+", "Bx22+", "Bx2b+", "角x22+"),
        (played("7g7f", "3c3d"), "8h2b", "Bx22=", "Bx2b=", "角x22="),
        (played("7g7f", "3c3d", "8h2b+"), "3a2b", "Sx22", "Sx2b", "銀x"),
        (Board(), "6i5h", "G69-58", "G6i-5h", "金(69)-58"),
        (Board(), "4i5h", "G49-58", "G4i-5h", "金(49)-58"),
        (board_from("K9i k9a S4f", "b", "S"), "S*5e", "S*55", "S*5e", "銀*55"),
        (board_from("K9i k9a N4e", "b"), "4e3c", "N-33=", "N-3c=", "桂-33="),
        (board_from("K9i k9a +B4e p3c", "b"), "4e3d", "+B-34", "+B-3d", "馬-34"),
        (board_from("K9i k9a +S4c", "b"), "4c4d", "+S-44", "+S-4d", "+銀-44"),
        (board_from("K9i k9a +R5e +R1e", "b"), "1e3e", "+R15-35", "+R1e-3e", "龍(15)-35"),
        (board_from("K9i k9a P2b", "b"), "2b2a+", "P-21+", "P-2a+", "歩-21+"),
    ],
)
def test_styles(board: Board, usi: str, hosking: str, hodges: str, kitao: str) -> None:
    move = Move.from_usi(usi)
    assert make_western(board, move, style="hosking") == hosking
    assert make_western(board, move, style="hodges") == hodges
    assert make_western(board, move, style="kitao") == kitao
    for text in (hosking, hodges, kitao):
        assert parse_western(board, text) == move


@pytest.mark.parametrize(
    ("text", "usi"),
    [("P76", "7g7f"), ("p-7f", "7g7f"), ("P7g-7f", "7g7f"), ("P77-76", "7g7f"), ("▲P-76", "7g7f"),
     ("☗歩-76", "7g7f"), ("G6i5h", "6i5h"), ("G69x58", "6i5h"), ("R-58", "2h5h"), ("L-9h", "9i9h")],
)
def test_lenient_reading(text: str, usi: str) -> None:
    assert parse_western(Board(), text) == Move.from_usi(usi)


def test_dragon_horse_and_tokin_letters() -> None:
    board = board_from("K9i k2a +R5e +B7g +P3d", "b")
    assert parse_western(board, "D-54") == Move.from_usi("5e5d")
    assert parse_western(board, "H-68") == Move.from_usi("7g6h")
    assert parse_western(board, "T-33") == Move.from_usi("3d3c")
    assert parse_western(board, "+P-3c") == Move.from_usi("3d3c")


def test_kitao_dou_needs_a_previous_move() -> None:
    board = played("7g7f", "3c3d", "8h2b+")
    assert parse_western(board, "銀x") == Move.from_usi("3a2b")
    assert parse_western(board, "Sx", previous_to=None) == Move.from_usi("3a2b")
    with pytest.raises(InvalidMoveError, match="destination"):
        parse_western(Board(), "歩x")
    assert make_western(board, Move.from_usi("3a2b"), style="kitao", previous_to=-1) == "銀x22"


@pytest.mark.parametrize("text", ["", "Z-76", "P-", "P-7z", "P-76++", "hello", "+K-58", "+G-58", "P(7)-76"])
def test_malformed(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_western(Board(), text)
    assert repr(text) in str(info.value)


def test_illegal_and_ambiguous() -> None:
    board = Board()
    with pytest.raises(AmbiguousMoveError, match="6i5h, 4i5h") as ambiguous:
        parse_western(board, "G-58")
    assert ambiguous.value.candidates == (Move.from_usi("6i5h"), Move.from_usi("4i5h"))
    with pytest.raises(IllegalMoveError, match="no pawn can move to 7e"):
        parse_western(board, "P-75")
    with pytest.raises(IllegalMoveError, match="no bishop in hand"):
        parse_western(board, "B*55")
    with pytest.raises(IllegalMoveError, match="must promote"):
        parse_western(board_from("K9i k9a P2b"), "P-21")
    with pytest.raises(IllegalMoveError, match="cannot promote"):
        parse_western(board_from("K9i k9a S5f"), "S-55+")
    with pytest.raises(IllegalMoveError, match="other side"):
        parse_western(board, "△P-34")
    with pytest.raises(IllegalMoveError, match="leaves the king in check"):
        make_western(board_from("K5i k9a G4i r1i"), Move.from_usi("4i4h"))
    with pytest.raises(ValueError, match="unknown western style"):
        make_western(board, Move.from_usi("7g7f"), style="chess")  # type: ignore[arg-type]
