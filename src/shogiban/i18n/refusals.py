"""Refusals in words: the rules' stable codes (``nifu``, ``self_check``, ``not_your_turn`` ...) and
their parameters, translated by key (``rules.<code>``) so that no front end re-runs the rules to
explain a refusal.

A refusal's parameters are plain values (``{"file": 5}``, ``{"square": "5e", "piece": "pawn"}``);
:func:`shogiban.i18n.terms.localize` writes them in the language.  A detail the refusal did not
carry is replaced by a neutral word (``rules.param.<name>``: "that square", "そのマス"), so a bare
code still reads as a sentence; an unknown code reads as ``rules.illegal``.

>>> refusal_text("nifu", {"file": 5}, "ja")
'二歩です。５筋にはすでに成っていない自分の歩があります'
>>> refusal_text("nifu", {}, "en")
'two pawns on that file (二歩): you already have an unpromoted pawn on that file'
>>> refusal_text("no_such_code", {}, "zh-hant")
'規則不允許這一步'
"""

from __future__ import annotations

from collections.abc import Mapping

from shogiban.i18n.catalogue import fill, has_key, placeholders, template, translate
from shogiban.i18n.languages import Language
from shogiban.i18n.terms import localize

#: The key of a code the catalogue does not know.
UNKNOWN_REFUSAL = "rules.illegal"


def refusal_key(code: str) -> str:
    """The catalogue key of the refusal *code* (``rules.illegal`` for an unknown code)."""
    key = f"rules.{code}"
    return key if has_key(key) and not code.startswith("param.") else UNKNOWN_REFUSAL


def refusal_text(code: str, params: Mapping[str, object] | None, language: Language | str) -> str:
    """Why the rules refused, in *language*: the template ``rules.<code>`` filled with *params*
    put into words, neutral words standing in for missing ones."""
    key = refusal_key(code)
    text = template(key, language)
    words = localize(params or {}, language)
    for name in placeholders(text):
        if name not in words:
            stand_in = f"rules.param.{name}"
            if not has_key(stand_in):
                # A number the sentence cannot do without (points, pieces): say less, not nonsense.
                return translate(UNKNOWN_REFUSAL, language)
            words[name] = translate(stand_in, language)
    return fill(text, words)
