"""The message catalogue: one JSON file per language beside this module, and the lookup.

Each file maps flat keys to templates.  A key's first part is its domain:

========================  =====================================================================
``language.name``         the language's name written in itself (for menus)
``format.*``              how squares and files are written (digits, rank letters or kanji)
``side.*``                sente, gote, and the handicap sides shitate and uwate
``piece.*``               piece names, by :class:`~shogiban.pieces.PieceType` name (``prom_rook``)
``rules.<code>``          why the rules refuse something, by the refusal's stable code
``termination.<value>``   how a game ended, by :class:`~shogiban.outcome.Termination` value
``error.<code>``          errors of requests and records, by the error's ``code``
``ui.<page>.*``           the web pages
``terminal.*``            the terminal game
``learn.*``, ``puzzle.*`` what the lessons and mate problems answer to a move
``lessons.<id>.*``        the lessons' titles and texts
========================  =====================================================================

Templates have ``{name}`` placeholders and nothing else (no format specs, no escapes): the web's
JavaScript fills the same templates the same way.  A key missing in a language falls back to
English; a key missing in English is a programming error (:class:`KeyError`).

>>> translate("terminal.board.move_number", "ja", number=12)
'12手目'
>>> Translator("zh-hans")("side.gote")
'后手'
>>> placeholders("{loser} resigned. {winner} wins.")
('loser', 'winner')
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Final

from shogiban.i18n.languages import FALLBACK, LANGUAGES, Language, language_tag, normalize_language

_PLACEHOLDER: Final = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

#: Domains the web pages use: what ``GET /i18n/{lang}.json`` serves.  The terminal's texts and
#: the lessons (rendered by the server) stay out.
WEB_DOMAINS: Final = ("language", "format", "side", "piece", "rules", "termination", "error", "ui")


@cache
def _table(language: Language) -> dict[str, str]:
    """The messages of *language* as its file has them (no fallback)."""
    path = resources.files("shogiban.i18n").joinpath(f"{language_tag(language)}.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError(f"catalogue {path.name}: expected an object of strings")
    return data


def messages(language: Language) -> dict[str, str]:
    """Every message of *language*, English filling the gaps (a new dict)."""
    return {**_table(FALLBACK), **_table(language)}


def language_names() -> dict[Language, str]:
    """Each supported language's name written in itself, in menu order (from the catalogue)."""
    return {language: _table(language)["language.name"] for language in LANGUAGES}


def has_key(key: str) -> bool:
    """Whether the catalogue has *key* (every key is in English)."""
    return key in _table(FALLBACK)


def template(key: str, language: Language | str = FALLBACK) -> str:
    """The template of *key* in *language* (or in English where the language lacks it).

    :raises KeyError: if no language has *key*.
    """
    lang = _language(language)
    found = _table(lang).get(key)
    if found is None:
        found = _table(FALLBACK)[key]
    return found


def placeholders(text: str) -> tuple[str, ...]:
    """The names of the ``{name}`` placeholders of *text*, in order, each once."""
    return tuple(dict.fromkeys(_PLACEHOLDER.findall(text)))


def fill(text: str, params: Mapping[str, object]) -> str:
    """*text* with each ``{name}`` replaced by ``str(params[name])``.

    :raises KeyError: if *params* lacks a placeholder's name.
    """
    return _PLACEHOLDER.sub(lambda found: str(params[found.group(1)]), text)


def translate(key: str, language: Language | str = FALLBACK, /, **params: object) -> str:
    """The message *key* in *language*, its placeholders filled from *params*.

    *language* is a :data:`Language` code or any name :func:`normalize_language` knows.

    :raises KeyError: if no language has *key*, or a placeholder has no parameter.
    :raises UnknownLanguageError: for an unknown language.
    """
    text = template(key, language)
    try:
        return fill(text, params)
    except KeyError as missing:
        raise KeyError(f"message {key!r} needs the parameter {missing.args[0]!r}") from None


class Translator:
    """:func:`translate` bound to one language: ``t = Translator("ja"); t("side.sente")``."""

    __slots__ = ("language",)

    def __init__(self, language: Language | str) -> None:
        self.language: Language = _language(language)

    def __call__(self, key: str, **params: object) -> str:
        return translate(key, self.language, **params)

    def __repr__(self) -> str:
        return f"Translator({self.language!r})"


def web_messages(language: Language) -> dict[str, str]:
    """The messages the web pages need in *language* (English filling the gaps)."""
    return {key: text for key, text in messages(language).items() if key.split(".", 1)[0] in WEB_DOMAINS}


@cache
def web_version() -> str:
    """A short hash of :func:`web_messages` in every language: it changes whenever a text the
    web pages get changes (the pages ask for the catalogue by it, so caches may keep it)."""
    tables = {language: web_messages(language) for language in LANGUAGES}
    body = json.dumps(tables, ensure_ascii=False, sort_keys=True).encode("utf-8")
    return hashlib.sha256(body).hexdigest()[:16]


def _language(language: Language | str) -> Language:
    for known in LANGUAGES:
        if language == known:
            return known
    return normalize_language(language)
