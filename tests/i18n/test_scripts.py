"""Each language in its own script: traditional characters in 繁體中文, simplified in 简体中文,
no Japanese kana or middle dots in Chinese, and the same piece names and coordinates as the
notation module writes on boards and in moves."""

from __future__ import annotations

import re

import pytest

from shogiban import i18n
from shogiban.notation.entry import format_move
from shogiban.notation.names import FILE_LABELS, LONG_PIECE_NAMES, PIECE_NAMES, RANK_LABELS, SIDE_NAMES
from shogiban.pieces import Color, PieceType

from .han_variants import SIMPLIFIED_ONLY, TRADITIONAL_ONLY

KANA = re.compile(r"[\u3040-\u30ff]+")
#: Kana a Chinese text may hold: と金, the promoted pawn, is written so in Chinese too.
CHINESE_KANA = {"と"}


#: Keys that list another script's characters on purpose (the Japanese forms move labels replace).
OTHER_SCRIPTS = {"format.move_forms"}


def _texts(language: i18n.Language) -> dict[str, str]:
    return {key: text for key, text in i18n.messages(language).items() if key not in OTHER_SCRIPTS}


def test_traditional_chinese_uses_traditional_characters() -> None:
    for key, text in _texts("zh-hant").items():
        wrong = sorted(set(text) & SIMPLIFIED_ONLY)
        assert not wrong, (key, wrong, text)
    hant = _texts("zh-hant")
    assert "將棋" in hant["lessons.check.check"]
    assert "将棋" not in "".join(hant.values())
    assert "盤" in "".join(hant.values())
    assert "盘" not in "".join(hant.values())


def test_simplified_chinese_uses_simplified_characters() -> None:
    for key, text in _texts("zh-hans").items():
        wrong = sorted(set(text) & TRADITIONAL_ONLY)
        assert not wrong, (key, wrong, text)
    hans = "".join(_texts("zh-hans").values())
    assert "将棋" in hans
    assert "將" not in hans
    assert "盘" in hans
    assert "盤" not in hans
    assert "後手" not in hans


def test_the_variant_table_knows_the_shogi_words() -> None:
    for pair in ["盤盘", "將将", "銀银", "飛飞", "龍龙", "馬马", "駒驹", "詰诘", "車车", "讀读"]:
        traditional, simplified = pair[0], pair[1]
        assert traditional in TRADITIONAL_ONLY
        assert simplified in SIMPLIFIED_ONLY


@pytest.mark.parametrize("language", ["zh-hant", "zh-hans"])
def test_chinese_has_no_japanese_kana_or_middle_dot(language: i18n.Language) -> None:
    for key, text in _texts(language).items():
        assert "・" not in text, (key, text)
        kana = set("".join(KANA.findall(text)))
        assert kana <= CHINESE_KANA, (key, kana, text)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_pieces_sides_and_coordinates_are_the_notations(language: i18n.Language) -> None:
    for piece_type in PieceType:
        assert i18n.piece_name(piece_type, language) == LONG_PIECE_NAMES[language][piece_type]
        # The boards' characters: the web's (from the catalogue) and the terminal's and SVG's.
        assert i18n.template(f"piece.glyph.{piece_type.name.lower()}", language) == PIECE_NAMES[language][piece_type]
    assert i18n.side_name(Color.BLACK, language) == SIDE_NAMES[language][0]
    assert i18n.side_name(Color.WHITE, language) == SIDE_NAMES[language][1]
    assert i18n.template("format.files", language) == FILE_LABELS[language]
    assert i18n.template("format.ranks", language) == RANK_LABELS[language]


def test_chinese_move_labels_and_names_take_the_chinese_forms() -> None:
    from shogiban import Board, Move

    board = Board("4k4/9/9/9/9/9/9/9/4K4 b RS 1")
    for usi, hans, hant in [("R*5e", "飞", "飛"), ("S*5e", "银", "銀")]:
        assert format_move(board, Move.from_usi(usi), "zh-hans").endswith(hans)
        assert format_move(board, Move.from_usi(usi), "zh-hant").endswith(hant)
    assert i18n.piece_name("S", "zh-hans") == "银将"
    assert i18n.piece_name("S", "zh-hant") == "銀將"
    assert i18n.piece_name("+R", "zh-hans") == "龙王"
    assert PIECE_NAMES["zh-hans"][PieceType.PROM_ROOK] == "龙"
    assert i18n.side_name("w", "zh-hans") == "后手"
    assert i18n.side_name("w", "zh-hant") == "後手"
