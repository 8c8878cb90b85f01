"""Moves and what the rules say of them in the user's language: a move as the language's
players write it, why a move is illegal, why a declaration is refused, how a game ended.

The decisions come from the rules core (:func:`shogiban.rules.check_move`,
:func:`shogiban.rules.declaration_status`, :meth:`shogiban.Board.outcome`); this module only puts
them into words, for every front end (the terminal game, the web pages, the lessons).

>>> from shogiban import Board, Move
>>> board = Board("4k4/9/9/9/9/9/4P4/9/4K4 b P 1")
>>> refusal = board.check_move(Move.from_usi("P*5e"))
>>> refusal.code, refusal_reason(refusal, "en")
('nifu', 'two pawns on file 5 (二歩): you already have an unpromoted pawn on that file')
>>> refusal_reason(refusal, "ja")
'二歩です。５筋にはすでに成っていない自分の歩があります'
>>> format_move(Board(), Move.from_usi("7g7f"), "ja")
'▲７六歩'

The words come from the catalogue (:mod:`shogiban.i18n`): refusals by their code
(``rules.<code>``), game ends by their termination (``termination.<value>``).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from shogiban import rules
from shogiban.errors import Refusal
from shogiban.i18n import Language, file_label, piece_name, refusal_text, side_name, square_label, translate
from shogiban.notation.japanese import make_ki2_move
from shogiban.notation.names import PIECE_NAMES
from shogiban.notation.western import make_western
from shogiban.outcome import Outcome, Termination
from shogiban.pieces import Color, PieceType

if TYPE_CHECKING:
    from shogiban.board import Board
    from shogiban.move import Move

__all__ = [
    "declaration_refusal",
    "explain_outcome",
    "file_label",
    "format_move",
    "illegal_reason",
    "japanese_in",
    "piece_name",
    "reason_for_code",
    "refusal_reason",
    "side_name",
    "square_label",
]


def illegal_reason(board: Board, move: Move, language: Language) -> tuple[str, str] | None:
    """Deprecated: use :meth:`shogiban.Board.check_move` and :func:`refusal_reason`.
    ``(code, text)`` saying why *move* is illegal for the side to move, or None if it is legal.
    """
    warnings.warn(
        "illegal_reason is deprecated: use Board.check_move and refusal_reason", DeprecationWarning, stacklevel=2
    )
    refusal = rules.check_move(board, move)
    if refusal is None:
        return None
    return refusal.code, refusal_reason(refusal, language)


def refusal_reason(refusal: Refusal, language: Language) -> str:
    """The core's *refusal* (as :func:`shogiban.rules.check_move` or
    :attr:`shogiban.IllegalMoveError.refusal` carry it) in *language*."""
    code = refusal.code
    # One core code, the sentence that fits the kind of move (a board move has a from_square).
    board_move = "from_square" in refusal.params
    if code == "occupied" and board_move:
        code = "occupied_by_own"
    elif code == "dead_piece" and board_move:
        code = "must_promote"
    return refusal_text(code, refusal.params, language)


def reason_for_code(board: Board, move: Move, code: str, language: Language) -> str:
    """The reason in *language* for the core's refusal *code* of *move* on *board* (as carried by
    :class:`shogiban.IllegalMoveError`)."""
    return refusal_reason(rules.describe_refusal(board, move, code), language)


def declaration_refusal(board: Board, language: Language) -> str | None:
    """Why the side to move cannot declare an entering-king win (in *language*), or None if it
    can.  The decision and the first unmet condition are the core's
    (:func:`shogiban.rules.declaration_status`); this puts them into words."""
    status = rules.declaration_status(board, board.entering_king_rule)
    if status.wins:
        return None
    refusal = status.refusal
    if refusal is None:  # a 持将棋 draw under the 24-point rule: short of the points to win
        return refusal_text("too_few_points", {"points": status.points[status.color], "need": status.win_points},
                            language)
    if refusal.code == "too_few_points":
        # The sentence names what a win needs, as the command asks for one.
        return refusal_text("too_few_points", {"points": refusal.params["points"], "need": status.win_points},
                            language)
    return refusal_text(refusal.code, refusal.params, language)


def explain_outcome(
    outcome: Outcome,
    board: Board,
    language: Language,
    *,
    handicap: bool = False,
    declarer: Color | None = None,
) -> str:
    """How the game ended, in a sentence or two of *language*.

    *board* is the final position (for the points of a declaration or an impasse count);
    *declarer* is the side that declared an entering-king win (the side to move by default).
    """
    winner = outcome.winner
    names = {
        "winner": side_name(winner, language, handicap=handicap) if winner is not None else "",
        "loser": side_name(winner.other, language, handicap=handicap) if winner is not None else "",
    }
    term = outcome.termination
    if term is Termination.ENTERING_KING:
        side = declarer if declarer is not None else board.turn
        points = board.declaration_points(side)
        if winner is None:
            return translate(
                "termination.entering_king_draw_points", language,
                side=side_name(side, language, handicap=handicap), points=points,
            )
        return translate("termination.entering_king_points", language, points=points, **names)
    if term is Termination.IMPASSE:
        black_points, white_points = rules.impasse_points(board)
        result = (
            translate("termination.impasse_count_draw", language)
            if winner is None
            else translate("termination.impasse_count_win", language, winner=names["winner"])
        )
        return translate(
            "termination.impasse_count", language, black_points=black_points, white_points=white_points, result=result
        )
    if term is Termination.ABANDONED and winner is not None:
        # The game core ends an engine's failure this way: the failing side loses.
        return translate("termination.engine_failure", language, **names)
    text = translate(f"termination.{term.value}", language, **names)
    if term is Termination.ILLEGAL_MOVE and outcome.detail:
        # The web page shows the detail the same way.
        text += f" ({outcome.detail})"
    return text


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
    return japanese_in(make_ki2_move(board, move), language)


def japanese_in(text: str, language: Language) -> str:
    """Japanese move text (``▲７六歩``) with the language's own piece characters: Chinese writes
    ``▲７六步``; Japanese and English keep the text as it is."""
    forms = _CHINESE_FORMS.get(language)
    if forms:
        text = "".join(forms.get(c, c) for c in text)
    return text
