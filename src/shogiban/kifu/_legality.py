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

from shogiban.bitboard import BISHOP_RAYS, BIT, ROOK_RAYS, ZONE
from shogiban.board import Board
from shogiban.notation._legal import reaches
from shogiban.position import DEAD_END, DROP_ALLOWED, SPEEDUPS

_FILE_MASKS = tuple(sum(BIT[r * 9 + (sq % 9)] for r in range(9)) for sq in range(81))
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

    :param in_check: whether the side to move is in check, when the caller knows (None: it is
        worked out when needed).
    """
    if _C_LEGAL_CODES is not None:
        if code in _C_LEGAL_CODES(board):
            board._push(code)
            return PLAYED
        return ILLEGAL
    to = code & 127
    frm = code >> 7 & 127
    color = board._turn
    squares = board._board
    if frm >= 81:
        pt = frm - 81
        if not board._hands[color][pt] or squares[to] or not DROP_ALLOWED[color][pt] >> to & 1:
            return ILLEGAL
        if pt == 1:
            if board._bb[1 | color << 4] & _FILE_MASKS[to]:
                return ILLEGAL
            eksq = board._kings[color ^ 1]
            if eksq >= 0 and to == (eksq - 9 if color else eksq + 9) and board._is_pawn_drop_mate(to):
                return ILLEGAL
        piece = 0
    else:
        piece = squares[frm]
        if not piece or piece >> 4 != color:
            return ILLEGAL
        target = squares[to]
        if target and (target >> 4 == color or target & 15 == 8):
            return ILLEGAL  # a king is never captured (a lenient start position may offer one)
        if not reaches(board, piece, frm, to):
            return ILLEGAL
        if code >> 14:
            if not 1 <= piece & 15 <= 6 or not (ZONE[color] >> frm & 1 or ZONE[color] >> to & 1):
                return ILLEGAL
        elif DEAD_END[piece] >> to & 1:
            return ILLEGAL
    board._push(code)
    ksq = board._kings[color]
    # Not in check, only a king move or a move off a line through the king can expose it.
    exposed = in_check is not False or piece & 15 == 8 or (frm < 81 and _LINES[ksq] >> frm & 1)
    if ksq >= 0 and exposed and board._is_attacked(ksq, color ^ 1, board._occ[0] | board._occ[1]):
        board._pop()
        return ILLEGAL
    return CHECK if _gives_check(board, frm, to, color) else LEGAL


def _gives_check(board: Board, frm: int, to: int, color: int) -> bool:
    """Whether the move just played from *frm* to *to* by *color* checks the other king."""
    eksq = board._kings[color ^ 1]
    if eksq < 0:
        return False
    if reaches(board, board._board[to], to, eksq):
        return True
    # A discovered check: the move left a line through the enemy king.
    return frm < 81 and bool(_LINES[eksq] >> frm & 1) and board._is_attacked(
        eksq, color, board._occ[0] | board._occ[1]
    )
