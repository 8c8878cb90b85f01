"""Typed moves: USI, Japanese (and its Chinese forms), western; errors explained in every language."""

from __future__ import annotations

import pytest

from shogiban import Board, Move
from shogiban.i18n import LANGUAGES
from shogiban.notation.entry import (
    AmbiguousEntryError,
    IllegalEntryError,
    UnreadableMoveError,
    format_move,
    read_move,
)

TWO_GOLDS = "4k4/9/3G1G3/9/9/9/9/9/4K4 b - 1"


@pytest.mark.parametrize("text", ["7g7f", "７六歩", "76歩", "▲７六歩", "7六步", "P-7f", "P-76", "p7f", "７ｇ７ｆ",
                                  "+7776FU", "7776FU", "+7776fu", "歩-76", "歩76", "歩-７６", "步-76"])
def test_every_notation_gives_the_same_move(text: str) -> None:
    assert read_move(Board(), text) == Move.from_usi("7g7f")


def test_drops_and_same_square() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/4K4 b S 1")
    assert read_move(board, "５五銀打") == Move.from_usi("S*5e")
    assert read_move(board, "S*5e") == Move.from_usi("S*5e")
    board = Board()
    for usi in ["7g7f", "3c3d", "8h2b+"]:
        board.push_usi(usi)
    assert read_move(board, "同銀") == Move.from_usi("3a2b")
    assert read_move(board, "同　銀") == Move.from_usi("3a2b")


def test_illegal_drop_explained_by_the_core_in_every_language() -> None:
    board = Board("4k4/9/9/9/9/9/4P4/9/4K4 b P 1")
    for text in ["P*5e", "55歩打", "５五歩", "P*55"]:
        with pytest.raises(IllegalEntryError) as caught:
            read_move(board, text)
        assert caught.value.reason_code == "nifu"
        assert "二歩" in caught.value.explain("ja")
        assert "file 5" in caught.value.explain("en")
        assert "二步" in caught.value.explain("zh-hant")


def test_illegal_board_move_reason() -> None:
    with pytest.raises(IllegalEntryError) as caught:
        read_move(Board(), "7g7e")
    assert caught.value.reason_code == "bad_piece_move"
    assert caught.value.explain("en") == "Illegal move 7g7e: a pawn on 7g cannot move to 7e."


def test_uchifuzume_typed_in_japanese() -> None:
    with pytest.raises(IllegalEntryError) as caught:
        read_move(Board("7nk/9/7G1/9/9/9/9/9/4K4 b P 1"), "１二歩打")
    assert caught.value.reason_code == "uchifuzume"
    assert "打ち歩詰め" in caught.value.explain("ja")


@pytest.mark.parametrize("text", ["52金", "５二金", "G-5b"])
def test_ambiguous_moves_list_the_candidates(text: str) -> None:
    board = Board(TWO_GOLDS)
    with pytest.raises(AmbiguousEntryError) as caught:
        read_move(board, text)
    assert sorted(m.usi() for m in caught.value.candidates) == ["4c5b", "6c5b"]
    assert "５二金右" in caught.value.explain("ja")
    assert "５二金左" in caught.value.explain("ja")
    assert "G4c-5b" in caught.value.explain("en")
    for language in LANGUAGES:
        assert "4c5b" in caught.value.explain(language)


def test_disambiguated_moves_are_read() -> None:
    board = Board(TWO_GOLDS)
    assert read_move(board, "５二金右") == Move.from_usi("4c5b")
    assert read_move(board, "52金左") == Move.from_usi("6c5b")
    assert read_move(board, "G6c-5b") == Move.from_usi("6c5b")


@pytest.mark.parametrize("text", ["hello", "7g", "", "!!"])
def test_unreadable_text(text: str) -> None:
    with pytest.raises(UnreadableMoveError):
        read_move(Board(), text)


def test_format_move_per_language() -> None:
    board = Board()
    move = Move.from_usi("7g7f")
    assert format_move(board, move, "ja") == "▲７六歩"
    assert format_move(board, move, "zh-hant") == "▲７六步"
    assert format_move(board, move, "en") == "P-7f"
    board = Board("4k4/9/9/9/9/9/9/9/4K4 b RS 1")
    assert format_move(board, Move.from_usi("R*5e"), "zh-hans") == "▲５五飞"
    assert format_move(board, Move.from_usi("S*5e"), "zh-hans") == "▲５五银"


@pytest.mark.parametrize(
    ("sfen", "text", "code", "ja"),
    [
        # The codes are the core's, as push_usi gives them (2b2a: dead_piece; 7g7f+: cannot_promote).
        ("4k4/7P1/9/9/9/9/9/9/4K4 b - 1", "２一歩", "dead_piece", "歩兵はそこでは成らなければなりません"),
        ("4k4/7P1/9/9/9/9/9/9/4K4 b - 1", "P-2a", "dead_piece", "歩兵はそこでは成らなければなりません"),
        (None, "７六歩成", "cannot_promote", "その手では歩兵は成れません"),
        (None, "５五銀", "no_such_move", "５五に動ける自分の銀将がありません"),
        (None, "S-5e", "no_such_move", "５五に動ける自分の銀将がありません"),
        (None, "△７六歩", "wrong_side", "先手の手番です"),
    ],
)
def test_notation_reasons_are_translated(sfen: str | None, text: str, code: str, ja: str) -> None:
    with pytest.raises(IllegalEntryError) as caught:
        read_move(Board(sfen) if sfen else Board(), text)
    assert caught.value.reason_code == code
    assert ja in caught.value.explain("ja")
    assert caught.value.reasons["en"] != caught.value.reasons["zh-hans"]


def test_csa_and_piece_first_forms_promote_drop_and_refuse() -> None:
    board = Board()
    for usi in ["7g7f", "3c3d"]:
        board.push_usi(usi)
    assert read_move(board, "+8822UM") == Move.from_usi("8h2b+")
    assert read_move(board, "角-22+") == Move.from_usi("8h2b+")
    assert read_move(board, "角x22成") == Move.from_usi("8h2b+")
    assert read_move(board, "角-22=") == Move.from_usi("8h2b")
    with pytest.raises(IllegalEntryError) as wrong_side:
        read_move(board, "-3334FU")  # sente is to move
    assert wrong_side.value.reason_code == "wrong_side"
    dropping = Board("4k4/9/9/9/9/9/9/9/4K4 b S 1")
    assert read_move(dropping, "+0055GI") == Move.from_usi("S*5e")
    assert read_move(dropping, "銀*55") == Move.from_usi("S*5e")
