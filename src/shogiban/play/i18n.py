"""Transitional: the terminal's old entry points to the text catalogue, now :mod:`shogiban.i18n`.

Code written against this module keeps running while it moves over: :func:`translate` keeps its
old argument order ``(language, key)``, and the old keys (``board.move_number``, ``game.title``,
``cmd.undo_done``, ``reason.nifu`` ...) are mapped to their catalogue keys
(``terminal.board.move_number`` ...).  New code imports :mod:`shogiban.i18n` and uses catalogue
keys; this module goes once nothing imports it.

>>> translate("ja", "board.move_number", number=12)
'12手目'
>>> Translator("en")("game.title", black="you", white="shogiban")
'you vs shogiban'
"""

from __future__ import annotations

from typing import Final

from shogiban import i18n
from shogiban.i18n import (
    Language,
    UnknownLanguageError,
    detect_language,
    language_names,
    normalize_language,
)

__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "Language",
    "Translator",
    "UnknownLanguageError",
    "current_key",
    "detect_language",
    "normalize_language",
    "translate",
]

#: The supported languages, English first (the old order of this module).
LANGUAGES: Final[tuple[Language, ...]] = ("en", "ja", "zh-hant", "zh-hans")

#: Each language's name written in itself, for menus.
LANGUAGE_NAMES: Final[dict[Language, str]] = language_names()

#: Old key prefixes and the catalogue's (the first that matches wins).
_OLD_PREFIXES: Final = (
    ("board.", "terminal.board."),
    ("game.", "terminal.game."),
    ("cmd.", "terminal.cmd."),
    ("error.", "terminal.error."),
    ("end.", "termination."),
    ("reason.", "rules."),
)
_OLD_KEYS: Final = {
    "help.text": "terminal.help",
    "file": "format.file",
    "declare.no_rule": "rules.no_declaration_rule",
    "declare.king_not_in_camp": "rules.king_not_in_camp",
    "declare.in_check": "rules.declare_in_check",
    "declare.too_few_pieces": "rules.too_few_pieces",
    "declare.too_few_points": "rules.too_few_points",
}


def current_key(key: str) -> str:
    """The catalogue key of *key*, which may be an old key of this module."""
    if i18n.has_key(key):
        return key
    if key in _OLD_KEYS:
        return _OLD_KEYS[key]
    for old, new in _OLD_PREFIXES:
        if key.startswith(old) and i18n.has_key(new + key[len(old):]):
            return new + key[len(old):]
    return key


def translate(language: Language, key: str, **params: object) -> str:
    """:func:`shogiban.i18n.translate` with the old argument order and old keys."""
    return i18n.translate(current_key(key), language, **params)


class Translator(i18n.Translator):
    """:class:`shogiban.i18n.Translator` that also understands the old keys."""

    __slots__ = ()

    def __call__(self, key: str, **params: object) -> str:
        return i18n.translate(current_key(key), self.language, **params)
