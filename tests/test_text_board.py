"""The terminal board: layout, hands, the last move, flipping and languages."""

from __future__ import annotations

import unicodedata

import pytest

from shogiban import Board, Move, PieceType
from shogiban.notation.names import LONG_PIECE_NAMES, PIECE_NAMES
from shogiban.text_board import text_board


def columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def test_start_position_layout() -> None:
    lines = text_board(Board()).splitlines()
    assert lines[0] == "後手の持駒：なし"
    assert lines[3] == "| v香 v桂 v銀 v金 v玉 v金 v銀 v桂 v香|一"
    assert lines[11] == "|  香  桂  銀  金  玉  金  銀  桂  香|九"
    assert lines[13] == "先手の持駒：なし"
    assert lines[14] == "手番：先手"
    board_lines = lines[1:13]
    assert len({columns(line.rstrip("一二三四五六七八九")) for line in board_lines[2:11]}) == 1
    # The file labels sit over the piece glyphs.
    assert columns(lines[1]) == columns(lines[3]) - 3 == 37


def test_hands_last_move_and_check() -> None:
    board = Board("4k4/9/9/9/9/9/9/4r4/4K4 b 2G18P 1")
    text = text_board(board)
    assert "先手の持駒：金二　歩十八" in text
    assert text.endswith("手番：先手  王手")
    board = Board()
    board.push_usi("7g7f")
    text = text_board(board, last_move=board.peek())
    assert "|  ・  ・* 歩" in text
    assert "最終手：▲７六歩" in text
    alone = Board(board.sfen())
    assert "最終手：▲７六歩" in text_board(alone, last_move=Move.from_usi("7g7f"))


def test_english_and_chinese() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/4K4 w 18p 1")
    english = text_board(board, language="en")
    assert "Gote in hand: P18" in english
    assert "Sente in hand: none" in english
    assert english.splitlines()[-1] == "To move: Gote"
    assert "|   .   .   .   .   K   .   .   .   .|i" in english
    start = Board()
    start.push_usi("7g7f")
    assert "Last move: P-7f" in text_board(start, language="en", last_move=start.peek())
    hans = text_board(Board(), language="zh-hans")
    assert "飞" in hans
    assert "步" in hans
    assert "后手的持驹：无" in hans
    hant = text_board(Board(), language="zh-hant")
    assert "飛" in hant
    assert "步" in hant
    assert "後手的持駒：無" in hant
    with pytest.raises(ValueError, match="unknown language"):
        text_board(Board(), language="xx")


def test_flipped() -> None:
    lines = text_board(Board(), flipped=True).splitlines()
    assert lines[0] == "先手の持駒：なし"
    assert lines[1].split() == list("１２３４５６７８９")
    assert lines[3] == "|  香  桂  銀  金  玉  金  銀  桂  香|九"


def test_name_tables_cover_every_piece() -> None:
    for table in (*PIECE_NAMES.values(), *LONG_PIECE_NAMES.values()):
        assert len(table) == 14
    assert all(len(name) == 1 for name in PIECE_NAMES["ja"].values())
    assert LONG_PIECE_NAMES["zh-hant"][PieceType.KING] == "玉將"
    assert LONG_PIECE_NAMES["zh-hans"][PieceType.PROM_ROOK] == "龙王"
