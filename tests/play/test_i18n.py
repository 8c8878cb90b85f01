"""The terminal's languages: names users type, the locale, and the catalogue keys the terminal's
code asks :mod:`shogiban.i18n` for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shogiban import i18n
from shogiban.i18n import (
    Translator,
    UnknownLanguageError,
    detect_language,
    normalize_language,
    translate,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "shogiban"


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
    with pytest.raises(UnknownLanguageError, match="'fr_FR'") as caught:
        normalize_language("fr_FR")
    assert caught.value.code == "unknown_language"
    # A huge name is quoted short.
    with pytest.raises(UnknownLanguageError) as huge:
        normalize_language("x" * 10_000)
    assert len(str(huge.value)) < 200


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


def test_the_terminal_keys_reach_the_catalogue() -> None:
    assert translate("terminal.board.move_number", "ja", number=3) == "3手目"
    assert translate("terminal.board.move_number", "zh-hans", number=3) == "第3手"
    assert Translator("en")("terminal.game.title", black="you", white="shogiban") == "you vs shogiban"


def test_an_unknown_key_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        translate("terminal.board.no_such_key", "en")


def test_every_key_the_terminal_code_asks_for_exists() -> None:
    # Each key the terminal asks for (self.t("terminal.cmd.undo_done")) exists, with the
    # parameters it passes matching the template's placeholders.
    call = re.compile(r"""\b(?:self\.)?t\(\s*"([a-z_.]+)"((?:[^()]|\([^()]*\))*)\)""")
    found = 0
    for path in [SRC / "play" / "session.py", SRC / "commands" / "play.py"]:
        for key, args in call.findall(path.read_text(encoding="utf-8")):
            found += 1
            assert i18n.has_key(key), (path.name, key)
            passed = set(re.findall(r"\b([a-z_]+)=", args))
            assert passed == set(i18n.placeholders(i18n.template(key))), (path.name, key, passed)
    assert found > 30
