"""Static exchange evaluation (SEE): what a capture wins once every recapture on its square is
played out, each side taking with its least valuable piece and free to stop when going on loses.

The values are the quiescence search's (:mod:`shogiban.engine.search`): taking a piece gains its
board value and the value of the piece it becomes in hand, and a capture that may promote does
(the capture generator, :func:`~shogiban.engine.movegen.capture_codes`, promotes pawns, bishops
and rooks whenever it can, and promotion is worth more than not for lances, knights and silvers),
gaining the promoted piece's extra value.  Only pieces on the board recapture (a piece in hand
cannot capture); sliders behind a capturer (lance, bishop, rook, horse, dragon) join the exchange
when it moves off their line; the king takes only when no enemy piece attacks the square any
more; pins are ignored.  The compiled twin (``shogiban._speedups.see``) gives the same values.
"""

from __future__ import annotations

from shogiban.bitboard import BISHOP_RAYS, ROOK_RAYS, ZONE
from shogiban.engine.evaluate import MATERIAL
from shogiban.position import Position

#: What taking the piece *code* gains: its board value and the value it has in hand.
GAIN = [0] * 32
#: What promoting the piece *code* gains (0 for pieces that cannot promote).
PROMOTION_GAIN = [0] * 32
for _code in range(32):
    _pt = _code & 15
    if 1 <= _pt <= 14:
        GAIN[_code] = MATERIAL[_pt] + MATERIAL[_pt - 8 if _pt > 8 else _pt]
    if 1 <= _pt <= 6:
        PROMOTION_GAIN[_code] = MATERIAL[_pt + 8] - MATERIAL[_pt]
#: Piece types from the least valuable attacker to the most (the king last, the type's number
#: breaking ties), the order in which each side recaptures.
ORDER = tuple(sorted(range(1, 15), key=lambda pt: (MATERIAL[pt] if pt != 8 else 1 << 30, pt)))
_ALIGNED = [ROOK_RAYS[sq] | BISHOP_RAYS[sq] for sq in range(81)]


def _attackers(pos: Position, sq: int, occupied: int) -> int:
    """Both colours' pieces in *occupied* that attack *sq* through *occupied*."""
    return (pos._attackers(sq, 0, occupied) | pos._attackers(sq, 1, occupied)) & occupied


def see(pos: Position, code: int) -> int:
    """The exchange value of the move *code* (not yet played) for the side to move: what it
    captures (and its promotion gain), less what the best sequence of recaptures on its
    destination then wins back.  A drop or a move to an empty square counts its later losses."""
    to = code & 127
    frm = code >> 7 & 127
    board = pos._board
    color = pos._turn
    occupied = pos._occ[0] | pos._occ[1]
    if frm >= 81:
        piece = (frm - 81) | color << 4
        gain = 0
    else:
        piece = board[frm]
        gain = GAIN[board[to]]
        occupied ^= 1 << frm
        if code >> 14:
            gain += PROMOTION_GAIN[piece]
            piece += 8
    # gains[d]: what the side making the d-th capture has won if the exchange stops after it.
    gains = [gain]
    attackers = _attackers(pos, to, occupied)
    side = color ^ 1
    bb = pos._bb
    occ = pos._occ
    zone = ZONE
    while True:
        mine = attackers & occ[side]
        if not mine:
            break
        for pt in ORDER:
            found = mine & bb[pt | side << 4]
            if found:
                break
        low = found & -found
        occupied ^= low
        if low & _ALIGNED[to]:
            attackers = _attackers(pos, to, occupied)  # the sliders behind it join
        else:
            attackers ^= low
        if pt == 8 and attackers & occ[side ^ 1]:
            break  # the king cannot take on a square the enemy still attacks
        gain = GAIN[piece] - gains[-1]
        piece = pt | side << 4
        if pt <= 6 and (zone[side] & (low | 1 << to)):
            gain += PROMOTION_GAIN[piece]
            piece += 8
        gains.append(gain)
        side ^= 1
    # Each side takes only when it does not lose by it: from the last capture back.
    d = len(gains) - 1
    while d:
        if gains[d] > -gains[d - 1]:
            gains[d - 1] = -gains[d]
        d -= 1
    return gains[0]
