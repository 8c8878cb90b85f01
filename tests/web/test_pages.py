"""Language negotiation and the page shell."""

from __future__ import annotations

import json

import pytest

from shogiban.web.pages import LANGUAGES, STATIC, match_language, negotiate_language, strings


@pytest.mark.parametrize(("header", "expected"), [
    (None, "en"), ("", "en"), ("*", "en"), ("de-DE,fr;q=0.8", "en"),
    ("ja", "ja"), ("ja-JP,en;q=0.5", "ja"), ("en;q=0.5,ja;q=0.9", "ja"),
    ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-Hant-TW", "zh-Hant"), ("zh-MO", "zh-Hant"),
    ("zh-CN", "zh-Hans"), ("zh", "zh-Hans"), ("zh-Hans", "zh-Hans"), ("zh-SG;q=0.9, ja;q=0.1", "zh-Hans"),
    ("ja;q=0, en", "en"), ("ja;q=bad, zh-TW;q=0.5", "zh-Hant"),
])
def test_negotiate_language(header: str | None, expected: str) -> None:
    assert negotiate_language(header) == expected


def test_match_language_rejects_others() -> None:
    assert match_language("ko-KR") is None


def test_every_language_has_every_string() -> None:
    tables = {lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGUAGES}
    english = set(tables["en"])
    for lang, table in tables.items():
        assert set(table) == english, lang
        for key, text in table.items():
            assert text.strip(), (lang, key)
            # Placeholders must match English so t(key, params) fills them in every language.
            assert sorted(set(_placeholders(text))) == sorted(set(_placeholders(tables["en"][key]))), (lang, key)
    assert strings("ja")["nav.play"] == "対局"


def test_every_key_used_by_the_scripts_exists() -> None:
    import re

    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    used: set[str] = set()
    for path in (STATIC / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        used.update(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z_.0-9]+)["']""", text))
        used.update(re.findall(r"""data-i18n["']?:?\s*=?\s*["']([a-z_]+\.[a-z_.0-9]+)["']""", text))
    missing = sorted(key for key in used if key not in english)
    assert not missing, missing
    assert len(used) > 100


def _placeholders(text: str) -> list[str]:
    import re

    return re.findall(r"\{(\w+)\}", text)
