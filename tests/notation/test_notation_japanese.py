"""KIF and KI2 move text: the examples of the formats, lenient reading, and the errors."""

from __future__ import annotations

import pytest
from notation_helpers import board_from

from shogiban import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move, ShogibanError
from shogiban.notation.japanese import (
    NO_PREVIOUS,
    japanese_square,
    make_japanese,
    make_ki2_move,
    make_kif_move,
    parse_japanese,
    parse_ki2_move,
    parse_kif_move,
)
from shogiban.notation.names import PIECE_ALIASES, kanji_number, parse_kanji_number


def played(*usi: str) -> Board:
    board = Board()
    for text in usi:
        board.push_usi(text)
    return board


def test_kif_examples() -> None:
    assert make_kif_move(Board(), Move.from_usi("7g7f")) == "７六歩(77)"
    board = played("2g2f", "8c8d", "2f2e", "8d8e", "2e2d")
    assert make_kif_move(board, Move.from_usi("2c2d")) == "同　歩(23)"
    board = played("7g7f", "3c3d")
    assert make_kif_move(board, Move.from_usi("8h2b+")) == "２二角成(88)"
    board.push_usi("8h2b+")
    assert make_kif_move(board, Move.from_usi("3a2b")) == "同　銀(31)"
    board = board_from("K9i k9a N4e", "b", "S")
    assert make_kif_move(board, Move.from_usi("4e3c")) == "３三桂不成(45)"
    assert make_kif_move(board, Move.from_usi("4e3c+")) == "３三桂成(45)"
    assert make_kif_move(board, Move.from_usi("S*5e")) == "５五銀打"
    board = board_from("K9i k9a +N7g", "b")
    assert make_kif_move(board, Move.from_usi("7g6g")) == "６七成桂(77)"


def test_kif_writes_illegal_moves_of_the_side_to_move_but_not_ghost_pieces() -> None:
    board = board_from("K5i k5a G4i r1i", "b")  # the gold is pinned
    assert make_kif_move(board, Move.from_usi("4i4h")) == "４八金(49)"
    with pytest.raises(IllegalMoveError, match="no piece"):
        make_kif_move(board, Move.from_usi("3i3h"))
    with pytest.raises(IllegalMoveError, match="no pawn in hand"):
        make_kif_move(board, Move.from_usi("P*5e"))
    with pytest.raises(IllegalMoveError, match="leaves the king in check"):
        make_ki2_move(board, Move.from_usi("4i4h"))


def test_ki2_examples_and_mark() -> None:
    board = Board()
    move = Move.from_usi("7g7f")
    assert make_ki2_move(board, move) == "▲７六歩"
    assert make_ki2_move(board, move, mark=False) == "７六歩"
    assert make_japanese(board, move) == "▲７六歩"
    board.push(move)
    assert make_japanese(board, Move.from_usi("3c3d")) == "△３四歩"


@pytest.mark.parametrize(
    "text",
    ["７六歩", "76歩", "7六歩", "七六歩", "▲７六歩", "☗７六歩", "７六歩(77)", "７六歩（７７）", "７六歩兵", "７六 歩",
     " ７六歩　", "▲ ７六歩", "７六歩 (77)", "76步"],
)
def test_lenient_reading_of_a_pawn_move(text: str) -> None:
    assert parse_japanese(Board(), text) == Move.from_usi("7g7f")


@pytest.mark.parametrize("text", ["△３四歩", "☖34歩", "▽３四歩", "３四歩(33)"])
def test_gote_marks(text: str) -> None:
    assert parse_japanese(played("7g7f"), text) == Move.from_usi("3c3d")


@pytest.mark.parametrize(
    ("pieces", "text", "usi"),
    [
        ("K9i k9a +R5e", "５四竜", "5e5d"), ("K9i k9a +R5e", "５四龍", "5e5d"), ("K9i k9a +R5e", "５四竜王", "5e5d"),
        ("K9i k9a +R5e", "５四龙", "5e5d"),
        ("K9i k2a +B5e", "５四馬", "5e5d"), ("K9i k2a +B5e", "５四龍馬", "5e5d"),
        ("K5i k9a", "５八王", "5i5h"), ("K5i k9a", "５八玉", "5i5h"), ("K5i k9a", "５八玉将", "5i5h"),
        ("K9i k9a +L5e", "５四杏", "5e5d"), ("K9i k9a +L5e", "５四成香", "5e5d"),
        ("K9i k9a +N5e", "５四圭", "5e5d"), ("K9i k9a +N5e", "５四今", "5e5d"), ("K9i k9a +N5e", "５四成桂", "5e5d"),
        ("K9i k9a +S5e", "５四全", "5e5d"), ("K9i k9a +S5e", "５四成銀", "5e5d"),
        ("K9i k9a +P5e", "５四と", "5e5d"), ("K9i k9a +P5e", "５四と金", "5e5d"),
        ("K9i k9a S5d", "５三銀不成", "5d5c"), ("K9i k9a S5d", "５三銀生", "5d5c"),
        ("K9i k9a S5d", "５三銀成らず", "5d5c"), ("K9i k9a S5d", "５三銀成", "5d5c+"),
        ("K9i k9a S5d", "５三銀成(54)", "5d5c+"), ("K9i k9a S5d", "５三銀行", "5d5c"),
        ("K9i k9a S6c S4c", "５二銀右", "4c5b"),
    ],
)
def test_piece_spellings(pieces: str, text: str, usi: str) -> None:
    assert parse_japanese(board_from(pieces), text) == Move.from_usi(usi)


def test_dou_with_any_spacing_and_previous_to() -> None:
    board = played("2g2f", "8c8d", "2f2e", "8d8e", "2e2d")
    for text in ("同　歩", "同歩", "同 歩", "同　歩(23)", "△同歩", "２四同歩"):
        assert parse_kif_move(board, text) == Move.from_usi("2c2d")
    # An explicit previous_to wins over the stack.
    fresh = Board()
    assert parse_ki2_move(fresh, "同歩", previous_to=47) == Move.from_usi("7g7f")
    with pytest.raises(InvalidMoveError, match="同 needs a previous move"):
        parse_ki2_move(fresh, "同歩")
    with pytest.raises(InvalidMoveError, match="同 needs a previous move"):
        parse_ki2_move(board, "同歩", previous_to=NO_PREVIOUS)


@pytest.mark.parametrize(
    "text",
    ["", "hello", "７六", "７六馬鹿", "７六歩(7)", "７六歩xyz", "▲", "同", "７六歩成打", "５五銀打(54)", "０六歩"],
)
def test_malformed_text_raises_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_japanese(Board(), text)
    assert repr(text) in str(info.value)


def test_illegal_moves_say_why() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match=r"'７五歩'.*no pawn can move to 7e"):
        parse_japanese(board, "７五歩")
    with pytest.raises(IllegalMoveError, match="no bishop in hand"):
        parse_japanese(board, "５五角打")
    with pytest.raises(IllegalMoveError, match="gote's") as info:
        parse_japanese(board, "△３四歩")
    assert info.value.code == "wrong_side"
    with pytest.raises(IllegalMoveError, match="the piece on 7g is a pawn, not a silver"):
        parse_kif_move(board, "７六銀(77)")
    with pytest.raises(IllegalMoveError, match="must promote"):
        parse_japanese(board_from("K9i k9a P2b"), "２一歩")
    with pytest.raises(IllegalMoveError, match="cannot promote"):
        parse_japanese(board_from("K9i k9a S5f"), "５五銀成")
    with pytest.raises(IllegalMoveError, match="two pawns on file 5"):
        parse_japanese(board_from("K9i k9a P5g", hand="P"), "５五歩打")
    with pytest.raises(InvalidMoveError, match="cannot be dropped"):
        parse_japanese(board_from("K9i k9a"), "５五龍打")


def test_ambiguous_text_lists_the_candidates() -> None:
    with pytest.raises(AmbiguousMoveError, match="6i5h, 4i5h") as ambiguous:
        parse_ki2_move(Board(), "５八金")
    assert ambiguous.value.candidates == (Move.from_usi("6i5h"), Move.from_usi("4i5h"))
    with pytest.raises(AmbiguousMoveError):
        parse_kif_move(Board(), "５八金")  # KIF without origin is read like KI2


def test_errors_are_value_errors_with_lowercase_messages() -> None:
    for text in ("x", "７五歩", "５八金"):
        with pytest.raises(ShogibanError) as info:
            parse_japanese(Board(), text)
        assert isinstance(info.value, ValueError)
        assert str(info.value)[0].islower()


def test_squares_and_numbers() -> None:
    assert japanese_square(0) == "９一"
    assert japanese_square(80) == "１九"
    assert [kanji_number(n) for n in (1, 2, 10, 11, 18, 20, 99)] == ["一", "二", "十", "十一", "十八", "二十", "九十九"]
    for n in range(1, 100):
        assert parse_kanji_number(kanji_number(n)) == n
    assert parse_kanji_number("18") == 18
    assert parse_kanji_number("１８") == 18
    for bad in ("", "十十", "八八", "x", "一十一二"):
        with pytest.raises(ValueError, match="invalid"):
            parse_kanji_number(bad)


def test_aliases_are_at_most_two_characters() -> None:
    # The reader looks aliases up by their first one or two characters.
    assert max(len(alias) for alias in PIECE_ALIASES) == 2
