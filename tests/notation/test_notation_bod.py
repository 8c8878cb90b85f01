"""BOD diagrams: the Kifu for Windows layout, real files, lenient reading and errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from notation_helpers import board_from, read_kifu_text

from shogiban import Board, KifuParseError, Move
from shogiban.notation.bod import make_bod, parse_bod

START_BOD = """後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉v金v銀v桂v香|一
| ・v飛 ・ ・ ・ ・ ・v角 ・|二
|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七
| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八
| 香 桂 銀 金 玉 金 銀 桂 香|九
+---------------------------+
先手の持駒：なし
"""


def test_start_position_layout() -> None:
    assert make_bod(Board()) == START_BOD
    assert parse_bod(START_BOD) == Board()


def test_footer_and_turn_line() -> None:
    board = Board()
    board.push_usi("7g7f")
    text = make_bod(board, last_move=board.peek())
    assert text.endswith("先手の持駒：なし\n手数＝1  ▲７六歩  まで\n後手番\n")
    parsed = parse_bod(text)
    assert parsed.sfen() == board.sfen()
    board.push_usi("3c3d")
    board.push_usi("8h2b+")
    text = make_bod(board, last_move=board.peek())
    assert "手数＝3  ▲２二角成  まで" in text
    assert "先手の持駒：角" in text
    assert parse_bod(text).sfen() == board.sfen()
    board.push_usi("3a2b")
    assert "手数＝4  △同　銀  まで" in make_bod(board, last_move=board.peek())
    # A move that is not on the stack is rebuilt from the position after it.
    alone = Board(board.sfen())
    assert "手数＝4  △２二銀  まで" in make_bod(alone, last_move=Move.from_usi("3a2b"))
    assert "手数＝9  まで" in make_bod(alone, move_number=9)


def test_hands_with_big_counts() -> None:
    board = board_from("K5i k5a", "w", "RB2G3S4N2L18p")
    text = make_bod(board)
    assert "先手の持駒：飛　角　金二　銀三　桂四　香二\n" in text
    assert text.startswith("後手の持駒：歩十八\n")
    assert text.endswith("後手番\n")
    assert parse_bod(text) == board


def test_handicap_labels() -> None:
    board = Board.from_handicap("二枚落ち")
    text = make_bod(board, names=("下手", "上手"))
    assert text.startswith("上手の持駒：なし")
    assert "下手の持駒：なし" in text
    assert text.endswith("上手番\n")
    assert parse_bod(text) == board
    board.push_usi("5a4b")
    text = make_bod(board, names=("下手", "上手"))
    assert text.endswith("下手番\n")  # readers may assume the giver moves first
    assert parse_bod(text).turn == 0


def test_lenient_hands() -> None:
    diagram = START_BOD.split("\n", 1)[1].rsplit("先手の持駒", 1)[0]
    empty_start = diagram.replace("v歩", " ・").replace(" 歩", " ・")
    cases = {
        "飛 角二 歩十八": "R2B18P",  # ASCII spaces (Kifu for iPhone, ShogiGUI)
        "飛角二歩十八": "R2B18P",  # no separator at all
        "飛　角２　歩18": "R2B18P",  # arabic and full-width counts
        "飛車　角行二": "R2B",  # formal names
        "なし": "-",
        "": "-",
    }
    for hand, sfen_hand in cases.items():
        board = parse_bod("後手の持駒：なし\n" + empty_start + f"先手の持駒：{hand}\n", lenient=True)
        assert board.sfen().split()[2] == sfen_hand, hand


def test_remaining_pieces_go_to_the_defender() -> None:
    text = (
        "後手の持駒：残りの駒全部\n"
        + START_BOD.split("\n", 1)[1].split("|一")[0].rsplit("\n", 1)[0]
        + "\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n"
        + "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n" * 2
        + "| ・ ・ ・ ・ 金 ・ ・ ・ ・|四\n"
        + "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n" * 5
        + "+---------------------------+\n先手の持駒：金　歩二\n"
    )
    board = parse_bod(text)
    assert board.hand(1) == {6: 2, 5: 2, 7: 2, 4: 4, 3: 4, 2: 4, 1: 16}
    assert board.turn == 0


def test_turn_from_the_footer_mark_when_there_is_no_turn_line() -> None:
    lines = START_BOD + "手数＝3  ▲２六歩  まで\n"
    board = parse_bod(lines)
    assert board.turn == 1
    assert board.move_number == 4
    assert parse_bod(START_BOD + "手数＝4  △８四歩  まで\n").turn == 0
    assert parse_bod(START_BOD + "手数＝4  △８四歩  まで\n後手番\n").turn == 1  # the turn line wins


def test_whole_kif_text_with_header_and_moves(shared_data: Path) -> None:
    """python-shogi took the side to move from after the moves; the diagram says sente."""
    text = read_kifu_text(shared_data / "tsume" / "tsumemi-kif" / "3te-3.kif")
    board = parse_bod(text)
    assert board.sfen() == "8k/6+b2/7pB/8L/9/9/9/9/9 b G2r3g4s4n3l17p 1"


EXPECTED = {
    "kif/json-kifu-format/taichitsume.kif": "6+Pnl/6Sk1/6sp1/9/8P/9/9/9/9 b GS2r2b3gs3n3l15p 1",
    "kif/json-kifu-format/kifu_for_iphone.kif": "3sks3/9/4+P4/6+B2/9/9/9/9/9 b S2rb4gs4n4l17p 1",
    "kif/json-kifu-format/shogidokoro.kifu": "4+B2n1/7k1/6pp1/7gp/4P3P/9/9/9/9 b RBSNr3g3s2n4l13p 1",
    "kif/json-kifu-format/9fu.kif": "7pk/7p1/7p1/7p1/7p1/7p1/7p1/7p1/7p1 b 2R4L4s4n 1",
    "ki2/json-kifu-format/kobayashi_kinsho196702.ki2": "8k/2rrl4/2n2ln2/g3pp2p/3l4n/2lp5/g5p2/9/7+p1 b 2B2GN4s12p 1",
}


@pytest.mark.parametrize(("name", "sfen"), sorted(EXPECTED.items()))
def test_real_files(shared_data: Path, name: str, sfen: str) -> None:
    board = parse_bod(read_kifu_text(shared_data / name))
    assert board.sfen() == sfen
    again = parse_bod(make_bod(board), lenient=True)
    assert again.sfen() == sfen


def test_every_tsume_kif_diagram_reads_and_round_trips(shared_data: Path) -> None:
    files = sorted((shared_data / "tsume" / "tsumemi-kif").glob("*.kif"))
    assert len(files) == 20
    for path in files:
        board = parse_bod(read_kifu_text(path))
        assert board.turn == 0
        assert board.king_square(1) is not None
        assert parse_bod(make_bod(board)).sfen() == board.sfen()


def test_impossible_positions_only_with_lenient(shared_data: Path) -> None:
    text = read_kifu_text(shared_data / "kif" / "json-kifu-format" / "9fu.kif")
    with pytest.raises(KifuParseError, match="impossible position") as info:
        parse_bod(text, lenient=False)
    assert info.value.lineno == 9  # the first board row


def _error_line(text: str, first_lineno: int = 1) -> int | None:
    with pytest.raises(KifuParseError) as info:
        parse_bod(text, first_lineno=first_lineno)
    assert str(info.value).startswith("invalid bod: line ")
    return info.value.lineno


def test_errors_carry_line_numbers() -> None:
    rows = START_BOD.splitlines()
    short_row = rows.copy()
    short_row[4] = "| ・v飛 ・ ・ ・ ・v角 ・|二"
    assert _error_line("\n".join(short_row)) == 5
    bad_piece = rows.copy()
    bad_piece[5] = bad_piece[5].replace("v歩", "vX", 1)
    assert _error_line("\n".join(bad_piece)) == 6
    odd = rows.copy()
    odd[7] = "| ・ ・ ・ ・ ! ・ ・ ・ ・|四"
    assert _error_line("\n".join(odd), first_lineno=10) == 17
    eight_rows = rows[:4] + rows[5:]
    assert _error_line("\n".join(eight_rows)) is not None
    ten_rows = rows[:4] + rows[3:]
    assert _error_line("\n".join(ten_rows)) == 13
    bad_hand = rows.copy()
    bad_hand[-1] = "先手の持駒：飛　ねこ"
    assert _error_line("\n".join(bad_hand)) == 14
    bad_count = rows.copy()
    bad_count[-1] = "先手の持駒：歩十十"
    assert _error_line("\n".join(bad_count)) == 14
    assert _error_line("先手：名人\n後手：竜王\n") == 2
    too_many = [*rows[:-1], "先手の持駒：飛", "後手の持駒：残りの駒全部"]
    assert _error_line("\n".join(too_many)) == 4
