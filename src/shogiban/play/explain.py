"""Explanations in words, in the user's language: why a move is illegal, why a declaration is
refused, how a game ended.  The words live in :mod:`shogiban.notation.words`, where every front
end (the lessons too, which must not import the terminal game's modules) finds them; this module
keeps the names the terminal game and the web pages import.

>>> from shogiban import Board, Move
>>> refusal_reason(Board("4k4/9/9/9/9/9/4P4/9/4K4 b P 1").check_move(Move.from_usi("P*5e")), "en")
'two pawns on file 5 (二歩): you already have an unpromoted pawn on that file'
"""

from __future__ import annotations

from shogiban.notation.words import (
    declaration_refusal,
    explain_outcome,
    file_label,
    illegal_reason,
    piece_name,
    reason_for_code,
    refusal_reason,
    side_name,
    square_label,
)

__all__ = [
    "declaration_refusal",
    "explain_outcome",
    "file_label",
    "illegal_reason",
    "piece_name",
    "reason_for_code",
    "refusal_reason",
    "side_name",
    "square_label",
]
