"""Fast legality test for one move, for readers that validate every move of a record.

:meth:`shogiban.Board.is_legal` generates every legal move; a record names one move per ply, so
checking that move alone (geometry, hand, 二歩, 打ち歩詰め, promotion, self-check) is several
times faster.  Any move refused here is explained by :meth:`shogiban.Board.illegal_reason`.
"""

from __future__ import annotations

from shogiban.bitboard import BIT, STEP, ZONE, bishop_attack, ray_attack, rook_attack
from shogiban.board import Board
from shogiban.position import DEAD_END, DROP_ALLOWED, KIND

_FILE_MASKS = tuple(sum(BIT[r * 9 + (sq % 9)] for r in range(9)) for sq in range(81))


def _reaches(board: Board, piece: int, frm: int, to: int) -> bool:
    kind = KIND[piece]
    if kind == 0:
        return bool(STEP[piece][frm] >> to & 1)
    occupied = board._occ[0] | board._occ[1]
    if kind == 1:
        return bool(ray_attack(1 if piece & 16 else 0, frm, occupied) >> to & 1)
    if STEP[piece][frm] >> to & 1:
        return True
    slide = bishop_attack(frm, occupied) if kind in (2, 4) else rook_attack(frm, occupied)
    return bool(slide >> to & 1)


def push_if_legal(board: Board, code: int) -> bool:
    """Play the move *code* on *board* if it is legal and return True; else leave the board
    unchanged and return False."""
    to = code & 127
    frm = code >> 7 & 127
    color = board._turn
    squares = board._board
    if frm >= 81:
        pt = frm - 81
        if not board._hands[color][pt] or squares[to] or not DROP_ALLOWED[color][pt] >> to & 1:
            return False
        if pt == 1:
            if board._bb[1 | color << 4] & _FILE_MASKS[to]:
                return False
            eksq = board._kings[color ^ 1]
            if eksq >= 0 and to == (eksq - 9 if color else eksq + 9) and board._is_pawn_drop_mate(to):
                return False
    else:
        piece = squares[frm]
        if not piece or piece >> 4 != color:
            return False
        target = squares[to]
        if target and target >> 4 == color:
            return False
        if not _reaches(board, piece, frm, to):
            return False
        if code >> 14:
            if not 1 <= piece & 15 <= 6 or not (ZONE[color] >> frm & 1 or ZONE[color] >> to & 1):
                return False
        elif DEAD_END[piece] >> to & 1:
            return False
    board._push(code)
    ksq = board._kings[color]
    if ksq >= 0 and board._is_attacked(ksq, color ^ 1, board._occ[0] | board._occ[1]):
        board._pop()
        return False
    return True
