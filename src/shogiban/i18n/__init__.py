"""One text catalogue in 日本語, 繁體中文, 简体中文 and English, for every front end.

Every message, rule explanation, piece name and UI string lives in the data files beside this
package (``en.json``, ``ja.json``, ``zh-Hant.json``, ``zh-Hans.json``), keyed by domain (see
:mod:`shogiban.i18n.catalogue`).  The terminal game, the lessons and the web server read them
here; the web pages get them from ``GET /i18n/{lang}.json`` and keep no copy of their own.

>>> translate("rules.uchifuzume", "zh-hans")
'不可以打入步兵把对方将死（打步诘）'
>>> t = Translator("ja")
>>> t("termination.resignation", loser=side_name("w", "ja"), winner=side_name("b", "ja"))
'後手が投了しました。先手の勝ちです。'
>>> refusal_text("bad_piece_move", {"piece": "silver", "from_square": "5e", "square": "4e"}, "en")
'a silver on 5e cannot move to 4e'
"""

from __future__ import annotations

from shogiban.i18n.catalogue import (
    WEB_DOMAINS,
    Translator,
    has_key,
    language_names,
    messages,
    placeholders,
    template,
    translate,
    web_messages,
    web_version,
)
from shogiban.i18n.languages import (
    COOKIE_NAME,
    FALLBACK,
    LANGUAGES,
    Language,
    UnknownLanguageError,
    detect_language,
    language_tag,
    match_language,
    negotiate_language,
    normalize_language,
)
from shogiban.i18n.refusals import refusal_key, refusal_text
from shogiban.i18n.terms import file_label, localize, piece_name, piece_type_of, side_name, square_label

__all__ = [
    "COOKIE_NAME",
    "FALLBACK",
    "LANGUAGES",
    "WEB_DOMAINS",
    "Language",
    "Translator",
    "UnknownLanguageError",
    "detect_language",
    "file_label",
    "has_key",
    "language_names",
    "language_tag",
    "localize",
    "match_language",
    "messages",
    "negotiate_language",
    "normalize_language",
    "piece_name",
    "piece_type_of",
    "placeholders",
    "refusal_key",
    "refusal_text",
    "side_name",
    "square_label",
    "template",
    "translate",
    "web_messages",
    "web_version",
]
