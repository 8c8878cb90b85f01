"""Languages of the play and learn interfaces: English, 日本語, 繁體中文 and 简体中文.

Language codes are the lowercase BCP 47 tags ``en``, ``ja``, ``zh-hant`` and ``zh-hans``, as in
:mod:`shogiban.notation.names`.  Users may write
them in many ways (``zh_TW``, ``zh-cn``, ``traditional``, ``ja_JP.UTF-8``), and
:func:`normalize_language` maps all of those to one of the four.

>>> normalize_language("zh_TW.UTF-8")
'zh-hant'
>>> detect_language({"LANG": "ja_JP.UTF-8"})
'ja'
>>> translate("ja", "board.move_number", number=12)
'12手目'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal, TypeAlias

from shogiban.errors import ShogibanError
from shogiban.play.catalog import CATALOG

Language: TypeAlias = Literal["en", "ja", "zh-hant", "zh-hans"]

#: The supported languages, English first (the fallback).
LANGUAGES: tuple[Language, ...] = ("en", "ja", "zh-hant", "zh-hans")

#: Each language's name written in itself, for menus.
LANGUAGE_NAMES: dict[Language, str] = {"en": "English", "ja": "日本語", "zh-hant": "繁體中文", "zh-hans": "简体中文"}

_ALIASES: dict[str, Language] = {
    "en": "en", "english": "en", "c": "en", "posix": "en",
    "ja": "ja", "jp": "ja", "japanese": "ja", "日本語": "ja",
    "zh-hant": "zh-hant", "zh-tw": "zh-hant", "zh-hk": "zh-hant", "zh-mo": "zh-hant", "tw": "zh-hant",
    "traditional": "zh-hant", "繁體中文": "zh-hant", "繁体中文": "zh-hant", "繁體": "zh-hant",
    "zh-hans": "zh-hans", "zh-cn": "zh-hans", "zh-sg": "zh-hans", "zh": "zh-hans", "cn": "zh-hans",
    "simplified": "zh-hans", "简体中文": "zh-hans", "簡體中文": "zh-hans", "简体": "zh-hans",
}


class UnknownLanguageError(ShogibanError):
    """A language name none of the four supported languages matches."""

    code = "unknown_language"


def normalize_language(name: str) -> Language:
    """The supported language *name* stands for.

    Accepts BCP 47 tags and POSIX locales in any case (``zh_TW.UTF-8``, ``zh-hant-tw``,
    ``ja-JP``), and the languages' own names.

    :raises UnknownLanguageError: if *name* is none of them.
    """
    key = name.strip().split(".")[0].split("@")[0].replace("_", "-").lower()
    if key in _ALIASES:
        return _ALIASES[key]
    parts = key.split("-")
    if parts[0] == "zh":
        # zh-hant-tw, zh-hans-cn, zh-TW-x: the script or the region decides.
        for part in parts[1:]:
            found = _ALIASES.get(f"zh-{part}")
            if found is not None:
                return found
        return "zh-hans"
    if parts[0] in ("en", "ja"):
        return _ALIASES[parts[0]]
    known = ", ".join(LANGUAGES)
    raise UnknownLanguageError(f"unknown language: {name!r} (known: {known})")


def detect_language(environ: Mapping[str, str] | None = None) -> Language:
    """The language of the user's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, ``LANGUAGE``),
    or English when it is none of the supported ones."""
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(variable, "")
        for candidate in value.split(":"):
            if not candidate:
                continue
            try:
                return normalize_language(candidate)
            except UnknownLanguageError:
                continue
        if value:
            # The first variable that is set decides, as the C library does.
            break
    return "en"


def translate(language: Language, key: str, **params: object) -> str:
    """The message *key* in *language*, with ``{name}`` fields filled from *params*.

    A message missing in one language falls back to English.

    :raises KeyError: if no language has *key* (a programming error).
    """
    table = CATALOG[language]
    template = table.get(key)
    if template is None:
        template = CATALOG["en"][key]
    return template.format(**params) if params else template


class Translator:
    """:func:`translate` bound to one language: ``t = Translator("ja"); t("side.black")``."""

    __slots__ = ("language",)

    def __init__(self, language: Language) -> None:
        self.language: Language = language

    def __call__(self, key: str, **params: object) -> str:
        return translate(self.language, key, **params)

    def __repr__(self) -> str:
        return f"Translator({self.language!r})"
