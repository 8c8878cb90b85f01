"""Moves as people type and read them: USI (``7g7f``), Japanese (``７六歩``, ``76歩``, ``同歩``,
``５五銀打``, Chinese forms such as ``７六步`` too) or western (``P-7f``).

:func:`read_move` finds the notation, lets the notation modules parse it, and turns their
errors into :class:`MoveEntryError` subclasses that can explain themselves in the user's
language.  :func:`format_move` writes a move the way the language's players read it.

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

from shogiban.board import Board
from shogiban.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, ShogibanError
from shogiban.i18n import Language, refusal_text, translate
from shogiban.move import Move
from shogiban.notation.japanese import make_ki2_move, parse_japanese
from shogiban.notation.names import PIECE_NAMES
from shogiban.notation.western import make_western, parse_western
from shogiban.pieces import PieceType
from shogiban.play import explain

_USI = re.compile(r"[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i]")
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
    """``usi``, ``japanese`` or ``western``: the notation *text* is written in."""
    ascii_form = unicodedata.normalize("NFKC", text)
    if _USI.fullmatch(ascii_form):
        return "usi"
    if any(ord(c) > 0x2000 for c in text) or text[:1] in "0123456789":
        return "japanese"
    return "western" if _WESTERN_START.match(ascii_form) else "unknown"


def read_move(board: Board, text: str) -> Move:
    """The legal move *text* stands for, in USI, Japanese or western notation.

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
        found = explain.illegal_reason(board, move, "en")
        if found is not None:
            code, _ = found
            reasons = {lang: explain.reason_for_code(board, move, code, lang) for lang in _LANGS}
            raise IllegalEntryError(
                f"illegal move: {text!r} in {board.sfen()} ({reasons['en']})", text, move.usi(), reasons, code
            )
        return move
    try:
        if kind == "japanese":
            return parse_japanese(board, text)
        return parse_western(board, unicodedata.normalize("NFKC", text))
    except AmbiguousMoveError as error:
        raise AmbiguousEntryError(str(error), text, board, list(error.candidates)) from error
    except IllegalMoveError as error:
        reasons, code = _reasons_from_message(board, str(error))
        raise IllegalEntryError(str(error), text, text, reasons, code) from error
    except InvalidMoveError as error:
        raise UnreadableMoveError(str(error), text) from error


_LANGS: tuple[Language, ...] = ("en", "ja", "zh-hant", "zh-hans")


# The core's reasons (shogiban.rules.illegal_reason) as the notation modules quote them in their
# errors, mapped back to a code so that the reason can be told in every language.
_CORE_REASONS: tuple[tuple[re.Pattern[str], str], ...] = (
    # The notation modules' own reasons first (they may quote a core reason after them).
    (re.compile(r"the (?P<piece>[a-z ]+) must promote"), "must_promote"),
    (re.compile(r"the (?P<piece>[a-z ]+) cannot promote here"), "cannot_promote_here"),
    (re.compile(r"no (?P<piece>[a-z ]+) can move to (?P<square>\d[a-i])"), "no_such_move"),
    (re.compile(r"it is (?P<side>sente|gote)'s turn"), "wrong_side"),
    (re.compile(r"two pawns on file (?P<file>\d)"), "nifu"),
    (re.compile(r"pawn drop mate"), "uchifuzume"),
    (re.compile(r"a (?P<piece>[a-z ]+) dropped on (?P<square>\d[a-i]) could never move"), "dead_piece_drop"),
    (re.compile(r"a (?P<piece>[a-z ]+) on (?P<square>\d[a-i]) could never move again"), "dead_piece_move"),
    (re.compile(r"cannot drop on (?P<square>\d[a-i])"), "occupied_drop"),
    (re.compile(r"no (?P<piece>[a-z ]+) in hand"), "no_piece_in_hand"),
    (re.compile(r"leaves the king in check"), "self_check"),
)


_CODE_OF_KEY = {"dead_piece_drop": "dead_piece", "dead_piece_move": "dead_piece", "occupied_drop": "occupied"}
#: The catalogue's refusal (``rules.<code>``) that words each reason.
_REFUSAL_OF_KEY = {
    "dead_piece_drop": "dead_piece", "dead_piece_move": "must_promote", "occupied_drop": "occupied",
    "cannot_promote_here": "cannot_promote",
}


def _reasons_from_message(board: Board, message: str) -> tuple[dict[Language, str], str]:
    """Reasons in every language for a notation module's illegal-move *message*, and the code."""
    from shogiban.pieces import ENGLISH_NAMES
    from shogiban.squares import parse_square

    detail = message[message.find("(", message.find(" in ")) + 1:].rstrip(")") if " in " in message else message
    board_reason, _, drop_reason = detail.partition(", and as a drop: ")
    if drop_reason and not re.search(r"no [a-z ]+ in hand", drop_reason):
        # The piece is in hand but the drop is illegal: that is the useful reason.
        detail = drop_reason
    else:
        detail = board_reason
    for pattern, key in _CORE_REASONS:
        found = pattern.search(detail)
        if found is None:
            continue
        groups = found.groupdict()
        params: dict[str, object] = {}
        if "file" in groups:
            params["file"] = int(groups["file"])
        if "square" in groups:
            params["square"] = parse_square(groups["square"])
        if "piece" in groups and groups["piece"] in ENGLISH_NAMES:
            params["piece"] = ENGLISH_NAMES.index(groups["piece"])
        if "side" in groups:
            params["side"] = groups["side"]
        refusal = _REFUSAL_OF_KEY.get(key, key)
        reasons: dict[Language, str] = {lang: refusal_text(refusal, params, lang) for lang in _LANGS}
        return reasons, _CODE_OF_KEY.get(key, key)
    return dict.fromkeys(_LANGS, detail), "illegal_move"


def _chinese_forms(language: Language) -> dict[str, str]:
    """Japanese piece characters and the language's own forms (歩 -> 步, 飛 -> 飞 ...)."""
    table: dict[str, str] = {}
    for piece_type in PieceType:
        ja = PIECE_NAMES["ja"][piece_type]
        own = PIECE_NAMES[language][piece_type]
        if ja != own:
            table[ja] = own
    if "龍" in table:
        table["竜"] = table["龍"]
    return table


_CHINESE_FORMS = {lang: _chinese_forms(lang) for lang in ("zh-hant", "zh-hans")}


def format_move(board: Board, move: Move, language: Language) -> str:
    """*move* (legal on *board*, before it is played) as the language's players write it:
    ``▲７六歩`` (Japanese), ``▲７六步`` (Chinese), ``P-7f`` (English, western notation)."""
    if language == "en":
        # Hodges style (P-7f) matches the board's western coordinates (files 9..1, ranks a..i).
        return make_western(board, move, style="hodges")
    text = make_ki2_move(board, move)
    forms = _CHINESE_FORMS.get(language)
    if forms:
        text = "".join(forms.get(c, c) for c in text)
    return text
