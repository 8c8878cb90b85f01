"""Captures (and pawn promotions) only, for the quiescence search.

Generating every legal move just to keep the captures wastes most of the work at quiescence
nodes, where drops alone can be a hundred moves.  This generator follows the core's
:meth:`~shogiban.position.Position._legal_codes` with the enemy's pieces as the only targets.  It
must only be called when the side to move is not in check (evasions need the full generator).
"""

from __future__ import annotations

from shogiban.bitboard import BETWEEN, BISHOP_RAYS, BIT, KING8, RAYS, ROOK_RAYS, STEP, ZONE, N, S
from shogiban.position import (
    KIND,
    PAWN_CHUNKS,
    Position,
    _codes_for,
    piece_attacks,
)

# Per (piece, square) and destination set: the codes, without the pointless non-promotions of
# pawns, bishops and rooks (a promoted one does everything the unpromoted one does).
_CACHE: list[dict[int, tuple[int, ...]]] = [{} for _ in range(32 * 81)]
_CACHE_LIMIT = 1 << 12
_ALWAYS_PROMOTE = frozenset((1, 5, 6, 17, 21, 22))


def _codes(piece: int, sq: int, dests: int) -> tuple[int, ...]:
    codes = _codes_for(piece, sq, dests)
    if piece in _ALWAYS_PROMOTE:
        promoted = {c & 0x3FFF for c in codes if c >> 14}
        codes = tuple(c for c in codes if c >> 14 or c not in promoted)
    return codes


def capture_codes(pos: Position) -> list[int]:
    """Legal captures and pawn promotions of the side to move (which must not be in check).

    Pawns, bishops and rooks that can promote are only generated promoting."""
    color = pos._turn
    them = color ^ 1
    board = pos._board
    own = pos._occ[color]
    enemy = pos._occ[them]
    occupied = own | enemy
    ksq = pos._kings[color]
    pinned = 0
    lines: dict[int, int] = {}
    others = own
    moves: list[int] = []
    if ksq >= 0:
        others ^= BIT[ksq]
        _, pinned, lines = pos._checkers_and_pins(ksq, color, occupied)
        dests = KING8[ksq] & enemy
        without_king = occupied ^ BIT[ksq]
        while dests:
            low = dests & -dests
            dests ^= low
            to = low.bit_length() - 1
            if not pos._is_attacked(to, them, without_king):
                moves.append(to | ksq << 7)
    pawns = pos._bb[1 | color << 4] & ~pinned
    if pawns:
        others ^= pawns
        forward = pawns >> 9 if color == 0 else pawns << 9
        # Captures, and pushes onto the promotion zone (promoting only).
        zone = ZONE[color]
        dests = forward & (enemy | (zone & ~occupied))
        chunks = PAWN_CHUNKS[color]
        rank = 0
        while dests:
            bits = dests & 511
            if bits:
                moves.extend(
                    code
                    for code in chunks[rank][bits]
                    if code >> 14 or (board[code & 127] and not zone >> (code & 127) & 1)
                )
            dests >>= 9
            rank += 1
    cache_all = _CACHE
    while others:
        low = others & -others
        others ^= low
        sq = low.bit_length() - 1
        piece = board[sq]
        # A pinned pawn may still push along its line onto the promotion zone.
        dests = piece_attacks(piece, sq, occupied) & (
            enemy | (ZONE[color] & ~occupied) if piece & 15 == 1 else enemy
        )
        if low & pinned:
            dests &= lines[sq]
        if dests:
            cache = cache_all[piece * 81 + sq]
            codes = cache.get(dests)
            if codes is None:
                codes = _codes(piece, sq, dests)
                if len(cache) > _CACHE_LIMIT:
                    cache.clear()
                cache[dests] = codes
            moves += codes
    return moves


def may_give_check(pos: Position, code: int) -> bool:
    """Whether the move *code* might check the enemy king: exact for direct checks; any board move
    from a square on a line through the enemy king counts (it might uncover a check)."""
    color = pos._turn
    eksq = pos._kings[color ^ 1]
    if eksq < 0:
        return False
    to = code & 127
    frm = code >> 7 & 127
    occupied = pos._occ[0] | pos._occ[1]
    if frm >= 81:
        piece = (frm - 81) | color << 4
    else:
        if (ROOK_RAYS[eksq] | BISHOP_RAYS[eksq]) >> frm & 1:
            return True
        piece = pos._board[frm]
        if code >> 14:
            piece += 8
        occupied ^= BIT[frm]
    if STEP[piece][to] >> eksq & 1:
        return True
    kind = KIND[piece]
    if kind == 0:
        return False
    if kind == 1:
        line = RAYS[S if piece & 16 else N][to]
    elif kind in (2, 4):
        line = BISHOP_RAYS[to]
    else:
        line = ROOK_RAYS[to]
    return bool(line >> eksq & 1) and not BETWEEN[to][eksq] & occupied
