"""Move facts the notations share, from the rules core: the legal move codes of a position
(remembered for the last few positions), which pieces can reach a square by their movement, and
the refusal of an illegal move as an :class:`~shogiban.errors.IllegalMoveError` whose code is
the one :meth:`shogiban.Board.push_usi` gives for the same move.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from shogiban.errors import IllegalMoveError, Refusal
from shogiban.notation.excerpt import excerpt
from shogiban.rules import check_move, legal_codes, legal_moves_to, legal_origins, reaches, reaching

if TYPE_CHECKING:
    from shogiban.board import Board
    from shogiban.move import Move
    from shogiban.position import Position

__all__ = [
    "illegal", "legal_codes", "legal_moves_to", "legal_origins", "reaches", "reaching", "refusal_of", "why_illegal",
]


def refusal_of(position: Position, move: Move) -> Refusal:
    """The rules' refusal of *move*, which is not legal (see :func:`shogiban.rules.check_move`)."""
    return check_move(position, move) or Refusal("illegal", {}, "illegal move")


def why_illegal(position: Position, move: Move) -> tuple[str, str]:
    """Deprecated: use :func:`refusal_of`.  ``(code, reason)`` for a move that is not legal."""
    warnings.warn("why_illegal is deprecated: use refusal_of", DeprecationWarning, stacklevel=2)
    refusal = refusal_of(position, move)
    return refusal.code, refusal.message


def illegal(board: Board, refusal: Refusal, move: Move | None = None, text: str | None = None) -> IllegalMoveError:
    """The error for *refusal*, quoting *text* (default: *move* in USI) and the position."""
    shown = excerpt(text) if text is not None else repr(move.usi()) if move is not None else "move"
    return IllegalMoveError(f"illegal move: {shown} in {board.sfen()} ({refusal.message})", refusal=refusal, move=move)
