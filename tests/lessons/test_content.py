"""The lessons' data, checked against the rules core and the text catalogue."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from shogiban.board import Board
from shogiban.i18n import LANGUAGES
from shogiban.lessons.content import get_lesson, load_lessons, render_lesson, try_move
from shogiban.move import Move

CATALOGUE_FILES = ("en", "ja", "zh-Hant", "zh-Hans")


def test_every_section_text_exists_in_every_language() -> None:
    for name in CATALOGUE_FILES:
        text = resources.files("shogiban.i18n").joinpath(f"{name}.json").read_text("utf-8")
        catalogue = json.loads(text)
        for lesson in load_lessons():
            assert catalogue.get(f"lessons.{lesson.id}.title"), (lesson.id, name)
            for index in range(len(lesson.sections)):
                assert catalogue.get(lesson.text_key(index)), (lesson.text_key(index), name)


def test_game_end_diagram_is_checkmate() -> None:
    spec = get_lesson("game_end").sections[0]["diagram"]
    board = Board(spec["sfen"])
    assert board.is_check()
    assert list(board.legal_moves) == []


@pytest.mark.parametrize(("index", "code"), [(1, "self_check"), (2, "bad_piece_move")])
def test_game_end_illegal_moves_are_refused_with_their_code(index: int, code: str) -> None:
    spec = get_lesson("game_end").sections[index]["exercise"]
    assert spec["code"] == code
    board = Board(spec["sfen"])
    for usi in spec["try"]:
        assert Move.from_usi(usi) not in set(board.legal_moves)
        for lang in LANGUAGES:
            result = try_move("game_end", index, usi, lang)
            assert result["legal"] is False
            assert result["code"] == code
            assert result["success"] is True


def test_game_end_legal_move_is_not_the_goal() -> None:
    result = try_move("game_end", 1, "5h5g", "en")
    assert result["legal"] is True
    assert result["success"] is False


def test_game_end_renders_in_chinese_without_japanese_middle_dot() -> None:
    for lang in ("zh-hant", "zh-hans"):
        lesson = render_lesson("game_end", lang)
        assert "・" not in lesson["title"]
        assert all("・" not in p for s in lesson["sections"] for p in s["paragraphs"])


def test_fork_answer_is_legal_checks_and_attacks_the_rook() -> None:
    spec = get_lesson("tactics").sections[0]["exercise"]
    board = Board(spec["sfen"])
    legal = set(board.legal_moves)
    for usi in spec["answer"]:
        move = Move.from_usi(usi)
        assert move in legal
        board.push(move)
        assert board.is_check()
        # After the king steps away, the knight takes the rook.
        board.push(Move.from_usi("5a6b"))
        knight = Move.from_usi(usi[2:] + "3a+")  # a knight on the last rank must promote
        assert knight in set(board.legal_moves)
        board.pop()
        board.pop()


def test_answer_goal_accepts_only_the_answer() -> None:
    good = try_move("tactics", 0, "N*4c", "en")
    assert good["legal"] is True
    assert good["success"] is True
    other = try_move("tactics", 0, "N*5c", "en")
    assert other["legal"] is True
    assert other["success"] is False
    assert other["feedback"] != good["feedback"]
