"""Issue 10, finding 15: hostile content lands in ``game.errors`` (lenient) or raises
``KifuParseError`` (strict), never anything else."""

from __future__ import annotations

import pytest

from shogiban.errors import KifuParseError
from shogiban.kifu import Game, read_game, write_game
from shogiban.kifu.results import ResultKind

BIG = "1" * 5000  # int() refuses more than 4,300 digits
EMPTY_ROW = "|" + " ・" * 9 + "|\n"
NUMBERS = {
    "kif move number": ("kif", "手合割：平手\n   " + BIG + " ７六歩(77)\n"),
    "kif variation": ("kif", "手合割：平手\n   1 ７六歩(77)\n変化：" + BIG + "手\n"),
    "kif time": ("kif", "手合割：平手\n   1 ７六歩(77)   ( 0:" + BIG + "/00:00:16)\n"),
    "kif summary": ("kif", "手合割：平手\n   1 ７六歩(77)\nまで" + BIG + "手で先手の勝ち\n"),
    "kif time control": ("kif", "持ち時間：" + BIG + "分\n手合割：平手\n   1 ７六歩(77)\n"),
    "csa time": ("csa", "PI\n+\n+7776FU\nT" + BIG + "\n"),
    "csa time limit": ("csa", "$TIME_LIMIT:" + BIG + ":00+00\nPI\n+\n+7776FU\n"),
    "csa time v3": ("csa", "$TIME:" + BIG + "+0+0\nPI\n+\n+7776FU\n"),
    "csa version": ("csa", "V" + BIG + "\nPI\n+\n"),
    "usi move number": ("usi", "position sfen 4k4/9/9/9/9/9/9/9/4K4 b - " + BIG + " moves 5i5h\n"),
    "usi hand": ("usi", "position sfen 4k4/9/9/9/9/9/9/9/4K4 b " + BIG + "P 1\n"),
    "sfen move number": ("sfen", "4k4/9/9/9/9/9/9/9/4K4 b - " + BIG + "\n"),
    "usen offset": ("usen", "~" + BIG + ".7ku.r~0.7ku.\n"),
    "bod move number": ("bod", "手数＝" + BIG + "\n" + EMPTY_ROW * 9),
    "bod hand": ("bod", "先手の持駒：歩" + BIG + "\n" + EMPTY_ROW * 9),
    "jkf square": ("jkf", '{"header": {}, "moves": [{}, {"move": {"to": {"x": ' + BIG + ', "y": 6}, "piece": "FU"}}]}'),
    "jkf time": ("jkf", '{"moves": [{}, {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"},'
                        ' "time": {"now": {"m": 1, "s": 1' + "0" * 400 + '}}}]}'),
}


@pytest.mark.parametrize("case", sorted(NUMBERS))
def test_huge_numbers_are_problems_not_crashes(case: str) -> None:
    fmt, text = NUMBERS[case]
    game = read_game(text, format=fmt)  # lenient: never raises for bad content
    for written in ("kifu", "csa", "jkf", "usi", "usen", "ki2u", "bod"):
        write_game(game, written)
    game.time_control()
    messages = [str(error) for error in game.errors]
    try:
        read_game(text, format=fmt, strict=True)
    except KifuParseError as error:
        messages.append(str(error))
    assert all(len(message) < 300 for message in messages)


def _kif_with_diagram(rows: list[str], moves: str) -> str:
    head = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n"
    return head + "".join(rows) + "+---------------------------+\n先手の持駒：なし\n手数----指手--\n" + moves


def test_a_diagram_that_lets_a_king_be_captured_gives_a_foul_not_an_index_error() -> None:
    # Rows out of order put sente's rook next to gote's king with sente to move: lenient
    # diagrams allow it, and capturing the king raised IndexError in the legality check.
    rows = [EMPTY_ROW] * 9
    rows[0] = "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n"
    rows[1] = "| ・ ・ ・ ・ 飛 ・ ・ ・ ・|二\n"
    rows[8] = "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n"
    text = _kif_with_diagram([rows[8], *rows[1:8], rows[0]][::-1], "   1 ５一飛成(52)\n")
    game = read_game(text)
    result = game.result
    assert result is not None
    assert result.kind is ResultKind.ILLEGAL
    assert "king cannot be captured" in str(game.errors[-1])
    with pytest.raises(KifuParseError, match="king cannot be captured"):
        read_game(text, strict=True)
    for fmt in ("kifu", "ki2u", "csa", "jkf", "usi", "usen"):
        write_game(game, fmt)


def test_the_same_capture_from_every_reader_that_takes_a_position() -> None:
    sfen = "4k4/4R4/9/9/9/9/9/9/4K4 b - 1"
    for text in (f"position sfen {sfen} moves 5b5a", f"{sfen}\n4R4/9/9/9/9/9/9/9/4K4 w K 2\n"):
        game = read_game(text)
        assert isinstance(game, Game)
        assert not game.mainline_moves()
