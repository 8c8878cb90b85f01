"""The catalogue's data files: every key in every language, the same placeholders, real
translations, and the loader's lookup, fallback and filling."""

from __future__ import annotations

import importlib
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from shogiban import i18n

#: The module behind the package's lookup functions.
catalog = importlib.import_module("shogiban.i18n.catalogue")
PACKAGE = Path(catalog.__file__).resolve().parent
TAGS = [i18n.language_tag(language) for language in i18n.LANGUAGES]
DOMAINS = {"language", "format", "side", "piece", "rules", "termination", "error", "ui", "terminal", "learn",
           "puzzle", "lessons", "analysis"}
#: Texts that are the same in a language as in English, and why.
SAME_AS_ENGLISH = {
    "terminal.game.prompt",  # only the side's name and ">"
    "ui.board.promote",  # 成 / 不成 on the board, as on the pieces, in every language
    "ui.board.unpromote",
    "format.file_digits",  # Chinese writes file numbers with ASCII digits, as English does
    "format.move_forms",  # "-": Japanese and English move labels keep the Japanese characters
    "ui.nav.brand",  # the header's 将棋盤 beside the name: kanji in English too, as on the pieces
    "ui.editor.sfen",  # the format's name
}
#: Whole groups that may be the same: the pieces' characters (English boards draw kanji pieces,
#: as real sets have them, and Chinese shares most characters with Japanese).
SAME_AS_ENGLISH_PREFIXES = ("piece.glyph.",)


def _raw(tag: str) -> dict[str, str]:
    pairs: list[tuple[str, Any]] = json.loads(
        (PACKAGE / f"{tag}.json").read_text(encoding="utf-8"), object_pairs_hook=lambda items: items
    )
    keys = [key for key, _ in pairs]
    assert len(keys) == len(set(keys)), f"{tag}: a key twice"
    return dict(pairs)


@pytest.fixture(scope="module")
def tables() -> dict[str, dict[str, str]]:
    return {tag: _raw(tag) for tag in TAGS}


def test_one_file_per_language_ships_with_the_package() -> None:
    files = sorted(entry.name for entry in resources.files("shogiban.i18n").iterdir() if entry.name.endswith(".json"))
    assert files == sorted(f"{tag}.json" for tag in TAGS)
    # The wheel takes every file of the package (the build config excludes only compiled code).
    pyproject = (PACKAGE.parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"src/shogiban"' in pyproject
    assert "json" not in re.sub(r"(?s).*\[tool\.hatch\.build\.targets\.wheel\](.*?)\n\[.*", r"\1", pyproject)


def test_every_key_in_every_language(tables: dict[str, dict[str, str]]) -> None:
    english = tables["en"]
    assert len(english) > 400
    for tag, table in tables.items():
        assert set(table) == set(english), (tag, sorted(set(table) ^ set(english))[:5])
        for key, text in table.items():
            assert isinstance(text, str), (tag, key)
            assert text.strip(), (tag, key)
            # Leading or trailing blanks only where they are meant (the prompt ends in one).
            assert text == text.strip() or key == "terminal.game.prompt", (tag, key)


def test_every_placeholder_set_is_the_same_in_every_language(tables: dict[str, dict[str, str]]) -> None:
    for tag, table in tables.items():
        for key, text in table.items():
            assert set(i18n.placeholders(text)) == set(i18n.placeholders(tables["en"][key])), (tag, key)
            # One placeholder syntax: {name}; no format specs, conversions or stray braces.
            assert not re.search(r"\{[^{}]*[!:][^{}]*\}", text), (tag, key)
            assert re.sub(r"\{[A-Za-z_][A-Za-z0-9_]*\}", "", text).count("{") == 0, (tag, key)
            assert "}" not in re.sub(r"\{[A-Za-z_][A-Za-z0-9_]*\}", "", text), (tag, key)


def test_keys_are_grouped_by_domain(tables: dict[str, dict[str, str]]) -> None:
    for key in tables["en"]:
        domain, dot, rest = key.partition(".")
        assert domain in DOMAINS, key
        assert dot, key
        assert rest, key
        assert key == key.strip(), key
        assert "{" not in key, key
    # The files are sorted, so a domain's keys stay together.
    for tag in TAGS:
        keys = list(_raw(tag))
        assert keys == sorted(keys), tag


def test_texts_are_really_translated(tables: dict[str, dict[str, str]]) -> None:
    for tag in ("ja", "zh-Hant", "zh-Hans"):
        same = {key for key, text in tables[tag].items()
                if text == tables["en"][key] and not key.startswith(SAME_AS_ENGLISH_PREFIXES)}
        assert same <= SAME_AS_ENGLISH, (tag, sorted(same - SAME_AS_ENGLISH))
        for key, text in tables[tag].items():
            if key.startswith(("format.", "language.")) or key in SAME_AS_ENGLISH:
                continue
            # Every Japanese or Chinese text has Japanese or Chinese in it (not English left as is),
            # or at least its own punctuation where it is only placeholders.
            assert re.search(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]", text), (tag, key, text)


def test_the_language_names_come_from_the_catalogue() -> None:
    assert i18n.language_names() == {"ja": "日本語", "zh-hant": "繁體中文", "zh-hans": "简体中文", "en": "English"}


def test_translate_fills_placeholders_and_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    assert i18n.translate("terminal.board.move_number", "ja", number=3) == "3手目"
    assert i18n.translate("terminal.board.move_number", "zh-Hans", number=3) == "第3手"
    assert i18n.Translator("zh-TW")("side.gote") == "後手"
    # Extra parameters are ignored; a missing one names the message and the parameter.
    assert i18n.translate("side.sente", "en", unused=1) == "Sente"
    with pytest.raises(KeyError, match="needs the parameter 'number'"):
        i18n.translate("terminal.board.move_number", "en")
    with pytest.raises(KeyError):
        i18n.translate("ui.no_such.key", "ja")
    with pytest.raises(i18n.UnknownLanguageError):
        i18n.translate("side.sente", "fr")
    # A key a language lacks comes in English.
    japanese = dict(catalog._table("ja"))
    del japanese["side.sente"]
    monkeypatch.setattr(catalog, "_table", lambda language: japanese if language == "ja" else _raw(
        i18n.language_tag(language)))
    assert i18n.translate("side.sente", "ja") == "Sente"
    assert i18n.messages("ja")["side.sente"] == "Sente"


def test_values_are_text_not_templates() -> None:
    # A parameter's value is put in as it is: braces in it are not filled again, and no
    # attribute or index lookup is possible through a placeholder.
    assert i18n.translate("terminal.cmd.hint", "en", move="{move}") == "Hint: {move}"
    assert catalog.fill("{a.__class__} {a}", {"a": 1}) == "{a.__class__} 1"


#: Full-width and CJK punctuation: brackets, commas, stops, colons, quotes, the middle dot.
FULL_WIDTH_PUNCTUATION = re.compile(r"[\u3000-\u303f\u30fb\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]")


def test_english_text_has_no_full_width_punctuation(tables: dict[str, dict[str, str]]) -> None:
    # Issue 26: "Right lance（右香落ち）". Japanese names inside English text are fine; the
    # brackets and punctuation around them are ASCII.
    found = {key: text for key, text in tables["en"].items() if FULL_WIDTH_PUNCTUATION.search(text)}
    assert not found


def test_the_scripts_put_ascii_brackets_around_japanese_names_in_english() -> None:
    # The same for text the pages compose: a full-width bracket is only ever for other languages.
    static = PACKAGE.parent / "web" / "static"
    for script in static.rglob("*.js"):
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            if "（" in line and not line.lstrip().startswith("//"):
                # the line chooses ASCII brackets for English itself
                assert 'currentLanguage() === "en" ?' in line, f"{script.name}:{number}: {line.strip()}"
