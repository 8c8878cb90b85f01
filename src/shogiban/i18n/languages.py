"""The four languages, and which one a user wants: every way of asking is answered here.

Languages are named by the lowercase codes ``en``, ``ja``, ``zh-hant`` and ``zh-hans`` in Python
(the :mod:`shogiban.notation.names` tables use them too) and by their BCP 47 tags ``en``, ``ja``,
``zh-Hant`` and ``zh-Hans`` on the web and in the catalogue's file names.  BCP 47 tags are
case-insensitive, so both spellings are the same tag.

>>> normalize_language("zh_TW.UTF-8"), language_tag("zh-hant")
('zh-hant', 'zh-Hant')
>>> negotiate_language("fr-FR,fr;q=0.9,zh-TW;q=0.8,en;q=0.5")
'zh-hant'
>>> negotiate_language("ja", cookie="zh-Hans")       # a choice the user made wins
'zh-hans'
>>> detect_language({"LANG": "ja_JP.UTF-8"})
'ja'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Final, Literal, TypeAlias

from shogiban.errors import ShogibanError

Language: TypeAlias = Literal["en", "ja", "zh-hant", "zh-hans"]

#: The supported languages, in the order menus list them.
LANGUAGES: Final[tuple[Language, ...]] = ("ja", "zh-hant", "zh-hans", "en")

#: The language a missing message falls back to, and the one nobody asked for gets.
FALLBACK: Final[Language] = "en"

#: The cookie the web pages remember a visitor's choice in (its value is a language tag).
COOKIE_NAME: Final = "shogiban_lang"

_TAGS: Final[dict[Language, str]] = {"en": "en", "ja": "ja", "zh-hant": "zh-Hant", "zh-hans": "zh-Hans"}

_ALIASES: Final[dict[str, Language]] = {
    "en": "en", "english": "en", "c": "en", "posix": "en",
    "ja": "ja", "jp": "ja", "japanese": "ja", "日本語": "ja",
    "zh-hant": "zh-hant", "zh-tw": "zh-hant", "zh-hk": "zh-hant", "zh-mo": "zh-hant", "tw": "zh-hant",
    "traditional": "zh-hant", "繁體中文": "zh-hant", "繁体中文": "zh-hant", "繁體": "zh-hant",
    "zh-hans": "zh-hans", "zh-cn": "zh-hans", "zh-sg": "zh-hans", "zh": "zh-hans", "cn": "zh-hans",
    "simplified": "zh-hans", "简体中文": "zh-hans", "簡體中文": "zh-hans", "简体": "zh-hans",
}

#: Longer input is not a language name (and is not worth quoting in full).
_MAX_NAME = 64


class UnknownLanguageError(ShogibanError):
    """A language name none of the four supported languages matches."""

    code = "unknown_language"


def language_tag(language: Language) -> str:
    """The BCP 47 tag of *language* as the web and the catalogue files write it (``zh-Hant``)."""
    return _TAGS[language]


def match_language(name: str) -> Language | None:
    """The supported language *name* stands for, or None.

    Accepts BCP 47 tags and POSIX locales in any case (``zh_TW.UTF-8``, ``zh-hant-tw``,
    ``ja-JP``), and the languages' own names.

    >>> match_language("zh-TW"), match_language("zh"), match_language("ja-JP"), match_language("fr")
    ('zh-hant', 'zh-hans', 'ja', None)
    """
    if len(name) > _MAX_NAME:
        return None
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
    return None


def normalize_language(name: str) -> Language:
    """The supported language *name* stands for (see :func:`match_language`).

    :raises UnknownLanguageError: if *name* is none of them.
    """
    found = match_language(name)
    if found is None:
        known = ", ".join(sorted(_TAGS.values()))
        raise UnknownLanguageError(f"unknown language: {name[:_MAX_NAME]!r} (known: {known})")
    return found


def negotiate_language(accept_language: str | None, cookie: str | None = None) -> Language:
    """The language of a web request: the visitor's remembered choice (the *cookie* value) if it
    names a supported language, else the best of the ``Accept-Language`` header, else English.

    >>> negotiate_language("de-DE, ja;q=0.5, zh-CN;q=0.8")
    'zh-hans'
    >>> negotiate_language(None, cookie="not a language")
    'en'
    """
    if cookie:
        chosen = match_language(cookie)
        if chosen is not None:
            return chosen
    if not accept_language:
        return FALLBACK
    weighted: list[tuple[float, int, Language]] = []
    # A header is a few dozen ranges; a hostile one is cut rather than parsed at length.
    for position, part in enumerate(accept_language[:1024].split(",")[:32]):
        pieces = part.strip().split(";")
        quality = 1.0
        for param in pieces[1:]:
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        found = match_language(pieces[0])
        if found is not None and quality > 0:
            weighted.append((-quality, position, found))
    return min(weighted)[2] if weighted else FALLBACK


def detect_language(environ: Mapping[str, str] | None = None) -> Language:
    """The language of the user's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, ``LANGUAGE``),
    or English when it is none of the supported ones."""
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(variable, "")
        for candidate in value.split(":"):
            found = match_language(candidate) if candidate else None
            if found is not None:
                return found
        if value:
            # The first variable that is set decides, as the C library does.
            break
    return FALLBACK
