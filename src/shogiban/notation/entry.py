"""Moves as people type and read them: USI (``7g7f``), Japanese (``７六歩``, ``76歩``, ``同歩``,
``５五銀打``, Chinese forms such as ``７六步`` too, and the piece-first form ``歩-76``), western
(``P-7f``) or CSA (``+7776FU``, the sign optional).

:func:`read_move` finds the notation, lets the notation modules parse it, and turns their
errors into :class:`MoveEntryError` subclasses that can explain themselves in the user's
language.  :func:`format_move` (from :mod:`shogiban.notation.words`) writes a move the way the language's
players read it.

>>> from shogiban import Board
>>> board = Board()
>>> read_move(board, "76歩"), read_move(board, "7g7f"), read_move(board, "P-7f")
(Move.from_usi('7g7f'), Move.from_usi('7g7f'), Move.from_usi('7g7f'))
>>> format_move(board, read_move(board, "7g7f"), "ja")
'▲７六歩'
"""

from __future__ import annotations

import re
import unicodedata

from shogiban import rules
from shogiban.board import Board
from shogiban.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, ShogibanError
from shogiban.i18n import Language, translate
from shogiban.move import Move
from shogiban.notation import words as explain
from shogiban.notation.csa_move import parse_csa_move
from shogiban.notation.japanese import parse_japanese
from shogiban.notation.western import parse_western
from shogiban.notation.words import format_move

__all__ = [
    "AmbiguousEntryError", "IllegalEntryError", "MoveEntryError", "UnreadableMoveError", "format_move", "read_move",
]

_USI = re.compile(r"[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i]")
_CSA = re.compile(r"[+-]?[0-9]{4}[A-Z]{2}")
#: ``歩-76``, ``銀x55``, ``角*55``, ``桂-33+``: a piece, a mark, a square, then what may follow a
#: Japanese move (成, 不成, 打, the relative words); ``+`` / ``=`` stand for 成 / 不成.
_PIECE_FIRST = re.compile(r"(?P<piece>成[香桂銀]|[歩步香桂銀金角飛玉王と杏圭全馬龍竜])[-x*]?(?P<square>[1-9]{2})"
                          r"(?P<rest>[成不打右左上引寄直行入]*)(?P<mark>[+=]?)")
_WESTERN_START = re.compile(r"[+]?[PLNSGBRKplnsgbrk]")


class MoveEntryError(ShogibanError):
    """Typed text that cannot be played; :meth:`explain` says why in a given language."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.text = text

    def explain(self, language: Language) -> str:
        """The problem in *language*."""
        return translate("terminal.error.unreadable", language, text=repr(self.text))


class UnreadableMoveError(MoveEntryError):
    """Text in none of the notations."""

    code = "invalid_move"


class IllegalEntryError(MoveEntryError):
    """A readable move that the rules forbid here."""

    code = "illegal_move"

    def __init__(
        self, message: str, text: str, move_text: str, reasons: dict[Language, str], reason_code: str
    ) -> None:
        super().__init__(message, text)
        self.move_text = move_text
        self.reasons = reasons
        """The reason in each language."""
        self.reason_code = reason_code
        """The core's refusal code (``nifu``, ``uchifuzume``, ...), ``illegal_move`` if unknown."""

    def explain(self, language: Language) -> str:
        """See :meth:`MoveEntryError.explain`."""
        return translate("terminal.error.illegal", language, move=self.move_text, reason=self.reasons[language])


class AmbiguousEntryError(MoveEntryError):
    """Text that several legal moves match; :attr:`candidates` lists them."""

    code = "ambiguous_move"

    def __init__(self, message: str, text: str, board: Board, candidates: list[Move]) -> None:
        super().__init__(message, text)
        self.candidates = candidates
        self._board = board.copy()

    def explain(self, language: Language) -> str:
        """See :meth:`MoveEntryError.explain`."""
        shown = ", ".join(f"{format_move(self._board, m, language)} ({m.usi()})" for m in self.candidates)
        return translate("terminal.error.ambiguous", language, text=repr(self.text), candidates=shown)


def _notation(text: str) -> str:
    """``usi``, ``csa``, ``piece_first``, ``japanese`` or ``western``: the notation *text* is written in."""
    ascii_form = unicodedata.normalize("NFKC", text)
    if _USI.fullmatch(ascii_form):
        return "usi"
    if _CSA.fullmatch(ascii_form.upper()):
        return "csa"
    if _PIECE_FIRST.fullmatch(ascii_form):
        return "piece_first"
    if any(ord(c) > 0x2000 for c in text) or text[:1] in "0123456789":
        return "japanese"
    return "western" if _WESTERN_START.match(ascii_form) else "unknown"


def read_move(board: Board, text: str, *, check: bool = True) -> Move:
    """The legal move *text* stands for, in USI, Japanese or western notation.

    :param check: False leaves a USI move's legality to the caller (the game core refuses it);
        Japanese and western text name a legal move, so they are always matched against them.
    :raises UnreadableMoveError: if *text* is in none of them.
    :raises IllegalEntryError: if it is a move the rules forbid (with the reason).
    :raises AmbiguousEntryError: if several legal moves match (with the candidates).
    """
    text = text.strip()
    kind = _notation(text)
    if kind == "unknown":
        raise UnreadableMoveError(f"invalid move: {text!r} (not USI, Japanese or western notation)", text)
    if kind == "usi":
        move = Move.from_usi(unicodedata.normalize("NFKC", text))
        if not check:
            return move
        refusal = rules.check_move(board, move)
        if refusal is not None:
            reasons = {lang: explain.refusal_reason(refusal, lang) for lang in _LANGS}
            raise IllegalEntryError(
                f"illegal move: {text!r} in {board.sfen()} ({reasons['en']})", text, move.usi(), reasons, refusal.code
            )
        return move
    try:
        if kind == "csa":
            return parse_csa_move(board, unicodedata.normalize("NFKC", text).upper())
        if kind == "piece_first":
            return parse_japanese(board, _japanese_of_piece_first(unicodedata.normalize("NFKC", text)))
        if kind == "japanese":
            return parse_japanese(board, text)
        return parse_western(board, unicodedata.normalize("NFKC", text))
    except AmbiguousMoveError as error:
        raise AmbiguousEntryError(str(error), text, board, list(error.candidates)) from error
    except IllegalMoveError as error:
        # The notation modules refuse with the core's codes and parameters: no message to pick apart.
        reasons = {lang: explain.refusal_reason(error.refusal, lang) for lang in _LANGS}
        raise IllegalEntryError(str(error), text, text, reasons, error.code) from error
    except InvalidMoveError as error:
        raise UnreadableMoveError(str(error), text) from error


def _japanese_of_piece_first(text: str) -> str:
    """``歩-76`` as ``76歩``: the square first, as Japanese notation writes it."""
    match = _PIECE_FIRST.fullmatch(text)
    assert match is not None
    mark = {"+": "成", "=": "不成"}.get(match["mark"], "")
    return f"{match['square']}{match['piece']}{match['rest']}{mark}"


_LANGS: tuple[Language, ...] = ("en", "ja", "zh-hant", "zh-hans")
