"""The Chinese catalogues read as Chinese: no Japanese punctuation or Japanese-only forms
(a walk-through found ・ and 将棋盤 in Chinese pages)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

# Japanese forms with a different Chinese spelling; the notation's own symbols (▲△☗☖) are shared.
JAPANESE_ONLY = {"・": "the Japanese middle dot", "将棋盤": "the Japanese spelling of the board"}


def catalogue(tag: str) -> dict[str, str]:
    text = resources.files("shogiban.i18n").joinpath(f"{tag}.json").read_text(encoding="utf-8")
    data: dict[str, str] = json.loads(text)
    return data


# format.move_forms maps the Japanese characters to the Chinese ones, so it names both.
SKIPPED = {"format.move_forms"}


@pytest.mark.parametrize("tag", ["zh-Hant", "zh-Hans"])
def test_no_japanese_only_forms(tag: str) -> None:
    found = [(key, form) for key, value in catalogue(tag).items() if key not in SKIPPED
             for form in JAPANESE_ONLY if form in value]
    assert found == []


def test_the_brand_is_spelt_per_language() -> None:
    assert catalogue("zh-Hant")["ui.nav.brand"] == "將棋盤"
    assert catalogue("zh-Hans")["ui.nav.brand"] == "将棋盘"
    assert catalogue("ja")["ui.nav.brand"] == "将棋盤"
