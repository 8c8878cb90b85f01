"""Languages: names users type, the locale, and the message tables."""

from __future__ import annotations

import string

import pytest

from shogiban.play.catalog import CATALOG
from shogiban.play.i18n import LANGUAGES, UnknownLanguageError, detect_language, normalize_language, translate


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("en", "en"),
        ("en_US.UTF-8", "en"),
        ("C", "en"),
        ("ja", "ja"),
        ("ja_JP.UTF-8", "ja"),
        ("日本語", "ja"),
        ("zh-Hant", "zh-hant"),
        ("zh_TW", "zh-hant"),
        ("zh-HK", "zh-hant"),
        ("zh-Hant-TW", "zh-hant"),
        ("繁體中文", "zh-hant"),
        ("zh-Hans", "zh-hans"),
        ("zh_CN.UTF-8", "zh-hans"),
        ("zh", "zh-hans"),
        ("zh-Hans-SG", "zh-hans"),
        ("简体中文", "zh-hans"),
    ],
)
def test_normalize_language(name: str, expected: str) -> None:
    assert normalize_language(name) == expected


def test_unknown_language_is_refused_with_the_input_quoted() -> None:
    with pytest.raises(UnknownLanguageError, match="'fr_FR'"):
        normalize_language("fr_FR")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LC_ALL": "zh_TW.UTF-8", "LANG": "ja_JP.UTF-8"}, "zh-hant"),
        ({"LC_MESSAGES": "zh_CN.UTF-8"}, "zh-hans"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANGUAGE": "de:ja"}, "ja"),
        ({}, "en"),
    ],
)
def test_detect_language_from_the_locale(environ: dict[str, str], expected: str) -> None:
    assert detect_language(environ) == expected


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_language_has_every_message_with_the_same_fields() -> None:
    english = CATALOG["en"]
    for language in LANGUAGES:
        table = CATALOG[language]
        assert set(table) == set(english), language
        for key, template in table.items():
            assert _fields(template) == _fields(english[key]), (language, key)
            assert template.strip(), (language, key)


def test_translations_differ_from_english() -> None:
    # A copied English sentence would pass the key check; the texts must really be translated.
    for language in ("ja", "zh-hant", "zh-hans"):
        # The prompt is only the side's name and ">".
        same = [k for k, v in CATALOG[language].items() if v == CATALOG["en"][k] and k != "game.prompt"]
        assert same == [], language


def test_simplified_and_traditional_chinese_use_their_own_characters() -> None:
    assert "後手" not in "".join(CATALOG["zh-hans"].values())
    assert "將死" in CATALOG["zh-hant"]["end.checkmate"]
    assert "将死" in CATALOG["zh-hans"]["end.checkmate"]
    assert "打步詰" in CATALOG["zh-hant"]["reason.uchifuzume"]
    assert "打步诘" in CATALOG["zh-hans"]["reason.uchifuzume"]
    assert "二步" in CATALOG["zh-hant"]["reason.nifu"]
    assert "打ち歩詰め" in CATALOG["ja"]["reason.uchifuzume"]


def test_translate_fills_fields() -> None:
    assert translate("ja", "board.move_number", number=3) == "3手目"
    assert translate("zh-hans", "board.move_number", number=3) == "第3手"
