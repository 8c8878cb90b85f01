"""Refusals in words from their code and parameters, the same for the terminal and the lessons."""

from __future__ import annotations

import pytest

from shogiban import Board, Move, i18n
from shogiban.lessons.content import try_move
from shogiban.pieces import Color, PieceType
from shogiban.play import explain

#: Parameters the refusal sentences cannot do without (their declaration counts): a refusal
#: missing them reads as rules.illegal.
NUMBERS = {"pieces", "points", "need", "count", "most"}


@pytest.mark.parametrize(("code", "params", "language", "expected"), [
    ("nifu", {"file": 7}, "en", "two pawns on file 7 (二歩): you already have an unpromoted pawn on that file"),
    ("nifu", {"file": 7}, "ja", "二歩です。７筋にはすでに成っていない自分の歩があります"),
    ("nifu", {"file": "7"}, "zh-hant", "二步：第7筋已經有自己未升變的步兵"),
    ("bad_piece_move", {"piece": PieceType.SILVER, "from_square": "5e", "square": "4e"}, "zh-hans",
     "５五的银将不能走到４五"),
    ("no_piece_in_hand", {"piece": "+B"}, "ja", "持駒に竜馬がありません"),
    ("wrong_side", {"side": Color.WHITE}, "zh-hans", "现在轮到后手"),
    ("too_few_points", {"points": 27, "need": 28}, "en", "you have 27 points (28 are needed)"),
])
def test_parameters_are_put_into_words(code: str, params: dict[str, object], language: str, expected: str) -> None:
    assert i18n.refusal_text(code, params, language) == expected


def test_missing_details_get_neutral_words() -> None:
    assert i18n.refusal_text("bad_piece_move", {}, "en") == "a piece on that square cannot move to that square"
    assert i18n.refusal_text("nifu", {}, "ja") == "二歩です。その筋にはすでに成っていない自分の歩があります"
    # A number the sentence needs cannot be made up: the refusal says less instead.
    assert i18n.refusal_text("too_few_points", {"points": 3}, "en") == i18n.translate("rules.illegal", "en")


def test_every_refusal_placeholder_can_stand_in_or_is_a_count() -> None:
    for key, text in i18n.messages("en").items():
        if not key.startswith("rules.") or key.startswith("rules.param."):
            continue
        for name in i18n.placeholders(text):
            assert i18n.has_key(f"rules.param.{name}") or name in NUMBERS, (key, name)


def test_unknown_codes_and_unreadable_details() -> None:
    assert i18n.refusal_key("no_such_code") == "rules.illegal"
    assert i18n.refusal_key("param.square") == "rules.illegal"
    assert i18n.refusal_key("nifu") == "rules.nifu"
    # A value that does not read as what its name says is shown as it came (short and plain).
    words = i18n.localize({"square": "0z", "piece": "queen", "file": 12, "side": "red", "count": 3}, "ja")
    assert words == {"square": "0z", "piece": "queen", "file": 12, "side": "red", "count": 3}


@pytest.mark.parametrize(("value", "expected"), [
    (PieceType.PROM_ROOK, PieceType.PROM_ROOK), (6, PieceType.ROOK), ("prom_rook", PieceType.PROM_ROOK),
    ("+R", PieceType.PROM_ROOK), ("p", PieceType.PAWN), ("dragon", PieceType.PROM_ROOK),
    ("promoted lance", PieceType.PROM_LANCE),
])
def test_piece_names_are_read_in_every_form(value: object, expected: PieceType) -> None:
    assert i18n.piece_type_of(value) == expected


@pytest.mark.parametrize("value", ["+G", "+K", "X", "", "PP", True, None, 3.0, "x" * 1000])
def test_what_names_no_piece_is_refused(value: object) -> None:
    with pytest.raises(ValueError) as caught:
        i18n.piece_type_of(value)
    assert len(str(caught.value)) < 60


def test_squares_files_and_sides_are_checked() -> None:
    for bad_square in ("0a", "5j", "", -1, 81):
        with pytest.raises(ValueError):
            i18n.square_label(bad_square, "ja")
    for bad_file in (0, 10, "x"):
        with pytest.raises(ValueError):
            i18n.file_label(bad_file, "en")
    for bad_side in (2, "red", None, True):
        with pytest.raises(ValueError):
            i18n.side_name(bad_side, "en")
    assert i18n.square_label("1i", "zh-hant") == "１九"
    assert i18n.side_name("gote", "zh-hant", handicap=True) == i18n.translate("side.uwate", "zh-hant")


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_lessons_and_the_terminal_give_the_same_reason(language: i18n.Language) -> None:
    # The drops lesson's 二歩 exercise and the terminal explain the same refusal in the same words.
    result = try_move("drops", 1, "P*5e", language)
    board = Board("4k4/9/9/9/9/9/4P4/9/4K4 b P 1")
    refusal = board.check_move(Move.from_usi("P*5e"))
    assert refusal is not None
    assert result["code"] == refusal.code == "nifu"
    reason = explain.refusal_reason(refusal, language)
    assert result["reason"] == reason == i18n.refusal_text("nifu", {"file": 5}, language)
