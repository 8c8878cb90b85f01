"""Fast legality test for one move, for readers that validate every move of a record.

:meth:`shogiban.Board.is_legal` generates every legal move; a record names one move per ply, so
checking that move alone (geometry, hand, 二歩, 打ち歩詰め, promotion, self-check) is several
times faster.  Any move refused here is explained by :meth:`shogiban.Board.illegal_reason`.

With the C accelerator, generating every legal move in C and looking the move up is faster
still, and is what happens.  In pure Python the self-check test is the costly part, and most
moves cannot need it: a reader that tells :func:`push_if_legal` whether the side to move is in
check (the previous call's answer says whether its move gave check) has it run only for king
moves, moves out of check and moves along a line through the king.
"""

from __future__ import annotations

from typing import Final

from shogiban.bitboard import BISHOP_RAYS, ROOK_RAYS
from shogiban.board import Board
from shogiban.position import SPEEDUPS
from shogiban.rules import gives_check_after, play_checked

_LINES = tuple(ROOK_RAYS[sq] | BISHOP_RAYS[sq] for sq in range(81))

#: What :func:`push_if_legal` returns: illegal (0, false), legal and not a check, legal and a
#: check, legal (whether it checks is not known).
ILLEGAL: Final = 0
LEGAL: Final = 1
CHECK: Final = 2
PLAYED: Final = 3
# With the accelerator, the legal moves in C (each position of a record is new: no cache).
_C_LEGAL_CODES = SPEEDUPS.legal_codes if SPEEDUPS is not None else None


def push_if_legal(board: Board, code: int, in_check: bool | None = None) -> int:
    """Play the move *code* on *board* if it is legal and return :data:`LEGAL`, :data:`CHECK`
    when it gives check, or :data:`PLAYED` when that is not worked out; else leave the board
    unchanged and return :data:`ILLEGAL` (0, so the result reads as a bool).

    The test is the rules core's single-move checker (:func:`shogiban.rules.play_checked`), or
    with the accelerator the compiled legal-move list.

    :param in_check: whether the side to move is in check, when the caller knows (None: it is
        worked out when needed).
    """
    if _C_LEGAL_CODES is not None:
        if code in _C_LEGAL_CODES(board):
            board.push_code(code)
            return PLAYED
        return ILLEGAL
    if play_checked(board, code, in_check) is not None:
        return ILLEGAL
    return CHECK if gives_check_after(board, code) else LEGAL
