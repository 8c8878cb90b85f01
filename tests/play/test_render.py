"""The terminal board in every language, with and without colours."""

from __future__ import annotations

import pytest
from rich.console import Console

from shogiban import Board
from shogiban.i18n import LANGUAGES, Language
from shogiban.play.render import BoardView


def draw(view: BoardView, *, color: bool = False) -> str:
    console = Console(width=100, no_color=not color, force_terminal=color, color_system="truecolor" if color else None)
    with console.capture() as capture:
        console.print(view.renderable())
    return capture.get()


def played(*moves: str) -> Board:
    board = Board()
    for usi in moves:
        board.push_usi(usi)
    return board


@pytest.mark.parametrize(
    ("language", "files", "top_rank", "hand_word", "pawn"),
    [
        ("en", "9   8   7", "a", "hand", "歩"),
        ("ja", "９  ８  ７", "一", "持駒", "歩"),
        ("zh-hant", "９  ８  ７", "一", "持駒", "步"),
        ("zh-hans", "９  ８  ７", "一", "持驹", "步"),
    ],
)
def test_every_language_draws_its_labels(
    language: Language, files: str, top_rank: str, hand_word: str, pawn: str
) -> None:
    board = played("7g7f", "3c3d", "8h2b+")
    text = draw(BoardView(board, language, last_move=board.peek(), colors=False))
    lines = text.splitlines()
    assert files in lines[1]
    assert lines[3].rstrip().endswith(top_rank)
    assert hand_word in text
    assert f"v{pawn}" in text
    assert f" {pawn} " in text
    assert "*" in lines[4]  # the bishop's square 2b, the last move, is marked without colours
    assert text.count("\n") == 14


def test_all_languages_have_the_same_shape() -> None:
    shapes = {len(draw(BoardView(Board(), language)).splitlines()) for language in LANGUAGES}
    assert shapes == {14}


def test_hands_with_counts() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/4K4 b R2B12Pp 1")
    english = draw(BoardView(board, "en"))
    assert "飛 角×2 歩×12" in english
    assert "歩十二" in draw(BoardView(board, "ja"))
    letters = draw(BoardView(board, "en", letters=True))
    assert "R B×2 P×12" in letters
    assert "hand: p" in letters


def test_flipped_board_puts_gote_at_the_bottom() -> None:
    lines = draw(BoardView(Board(), "en", flipped=True)).splitlines()
    assert "1   2   3" in lines[1]
    assert lines[3].rstrip().endswith("i")
    assert "Gote" in lines[-1]


def test_letters_mark_sides_by_case() -> None:
    text = draw(BoardView(Board(), "en", letters=True))
    assert "  l   n   s   g   k" in text
    assert "  L   N   S   G   K" in text


def test_colours_mark_the_last_move_and_the_checked_king() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/4K4 b R 1")
    board.push_usi("R*5e")
    text = draw(BoardView(board, "en", last_move=board.peek()), color=True)
    assert "\x1b[" in text
    assert "*" not in text  # colours replace the mark
    assert "48;2;192;32;32" in text  # the checked king's red background
    plain = draw(BoardView(board, "en", last_move=board.peek(), colors=False))
    assert "\x1b[" not in plain
