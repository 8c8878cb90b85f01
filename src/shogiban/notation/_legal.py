"""Move facts the notations share: the legal move codes of a position (remembered for the last
few positions), and which pieces can reach a square by their movement.

Writing a move and reading it back (or writing it in several notations) asks for the legal
moves of the same position again and again; generating them is the costly part, so the codes
of the last few positions are kept, keyed by the Zobrist key and the occupancy (legal moves
depend only on the position: board, hands and side to move).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shogiban.bitboard import BETWEEN, BISHOP_RAYS, RAYS, ROOK_RAYS, STEP
from shogiban.position import KIND

if TYPE_CHECKING:
    from shogiban.move import Move
    from shogiban.position import Position

# Ray directions of a lance: towards rank 1 for sente, rank 9 for gote.
_LANCE_RAYS = (RAYS[0], RAYS[1])

_CACHE_SIZE = 8
_cache: dict[tuple[int, int, int, int], list[int]] = {}


def legal_codes(position: Position) -> list[int]:
    """The legal move codes of *position* (do not modify the list)."""
    key = (position._hash, position._occ[0], position._occ[1], position._turn)
    codes = _cache.get(key)
    if codes is None:
        codes = position._legal_codes()
        if len(_cache) >= _CACHE_SIZE:
            _cache.clear()
        _cache[key] = codes
    return codes


def reaches(position: Position, piece: int, frm: int, to: int) -> bool:
    """Whether *piece* (a piece code) on *frm* could move to *to* by its movement, ignoring
    pins, checks and what stands on *to*."""
    if STEP[piece][frm] >> to & 1:
        return True
    kind = KIND[piece]
    if not kind:
        return False
    if kind == 1:
        ray = _LANCE_RAYS[piece >> 4][frm]
    elif kind in (2, 4):
        ray = BISHOP_RAYS[frm]
    else:
        ray = ROOK_RAYS[frm]
    return bool(ray >> to & 1) and not BETWEEN[frm][to] & (position._occ[0] | position._occ[1])


# Where a piece may step to a square from: the steps of the same piece of the other colour.
_STEP_FROM = tuple(STEP[piece ^ 16] for piece in range(32))


def reaching(position: Position, piece: int, to: int) -> list[int]:
    """Squares, in increasing order, of the pieces *piece* (a piece code) that could move to
    *to* by their movement (:func:`reaches`)."""
    kind = KIND[piece]
    bb = position._bb[piece]
    if not kind:
        bb &= _STEP_FROM[piece][to]  # only squares a step away can hold one
    found = []
    while bb:
        low = bb & -bb
        frm = low.bit_length() - 1
        bb ^= low
        if not kind or reaches(position, piece, frm, to):
            found.append(frm)
    return found


def why_illegal(position: Position, move: Move) -> tuple[str, str]:
    """``(code, reason)`` for a move that is not legal (see :func:`shogiban.rules.illegal_reason`),
    also for the capture of a king, which only a position with the side not to move in check
    (read leniently) allows and :func:`~shogiban.rules.illegal_reason` cannot play."""
    from shogiban import rules

    to = move.to_square
    target = position._board[to]
    if move.drop is None and target & 15 == 8 and target >> 4 != position._turn:
        return "king_capture", "a king cannot be captured"
    return rules.illegal_reason(position, move) or ("illegal", "illegal move")
