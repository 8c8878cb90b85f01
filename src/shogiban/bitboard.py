"""81-bit bitboards as Python ints, and the attack tables built once at import.

Bit *i* stands for square *i* (see :mod:`shogiban.squares`).  Sliding attacks are found ray by
ray: the nearest blocker on a ray is the lowest set bit for rays that run towards higher square
numbers and the highest set bit for the others.
"""

from __future__ import annotations

from typing import TypeAlias

Bitboard: TypeAlias = int

FULL: Bitboard = (1 << 81) - 1
BIT: tuple[Bitboard, ...] = tuple(1 << sq for sq in range(81))

# Directions as (column step, row step); row -1 is towards rank a (sente's forward).
DIRECTIONS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))
N, S, W, E, NW, NE, SW, SE = range(8)  # W = towards file 9 (column 0)
ORTHOGONAL = (N, S, W, E)
DIAGONAL = (NW, NE, SW, SE)
#: Whether a ray runs towards higher square numbers (nearest blocker = lowest bit).
POSITIVE = tuple(dr > 0 or (dr == 0 and dc > 0) for dc, dr in DIRECTIONS)


def _on_board(col: int, row: int) -> bool:
    return 0 <= col < 9 and 0 <= row < 9


def _ray(sq: int, d: int) -> Bitboard:
    dc, dr = DIRECTIONS[d]
    col, row = sq % 9 + dc, sq // 9 + dr
    bb = 0
    while _on_board(col, row):
        bb |= 1 << (row * 9 + col)
        col, row = col + dc, row + dr
    return bb


#: RAYS[d][sq]: squares from *sq* in direction *d*, *sq* excluded, to the edge.
RAYS: tuple[tuple[Bitboard, ...], ...] = tuple(tuple(_ray(sq, d) for sq in range(81)) for d in range(8))


def _steps(sq: int, offsets: tuple[tuple[int, int], ...]) -> Bitboard:
    col, row = sq % 9, sq // 9
    bb = 0
    for dc, dr in offsets:
        if _on_board(col + dc, row + dr):
            bb |= 1 << ((row + dr) * 9 + col + dc)
    return bb


_GOLD = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1))
_BLACK_STEPS = {
    1: ((0, -1),),
    3: ((-1, -2), (1, -2)),
    4: ((-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)),
    7: _GOLD,
    8: tuple(DIRECTIONS),
    9: _GOLD,
    10: _GOLD,
    11: _GOLD,
    12: _GOLD,
    13: ((0, -1), (0, 1), (-1, 0), (1, 0)),
    14: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
}


def _step_table() -> tuple[tuple[Bitboard, ...], ...]:
    table: list[tuple[Bitboard, ...]] = []
    for code in range(32):
        pt, color = code & 15, code >> 4
        offsets = _BLACK_STEPS.get(pt, ())
        if color == 1:
            offsets = tuple((-dc, -dr) for dc, dr in offsets)
        table.append(tuple(_steps(sq, offsets) for sq in range(81)))
    return tuple(table)


#: STEP[code][sq]: non-sliding moves of the piece *code* from *sq* (the step part of horse/dragon).
STEP: tuple[tuple[Bitboard, ...], ...] = _step_table()
KING8: tuple[Bitboard, ...] = STEP[8]


def _between(a: int, b: int) -> Bitboard:
    for d in range(8):
        if RAYS[d][a] >> b & 1:
            return RAYS[d][a] & ~RAYS[d][b] & ~(1 << b)
    return 0


#: BETWEEN[a][b]: squares strictly between *a* and *b* on a line, else 0.
BETWEEN: tuple[tuple[Bitboard, ...], ...] = tuple(tuple(_between(a, b) for b in range(81)) for a in range(81))
ROOK_RAYS: tuple[Bitboard, ...] = tuple(RAYS[N][s] | RAYS[S][s] | RAYS[W][s] | RAYS[E][s] for s in range(81))
BISHOP_RAYS: tuple[Bitboard, ...] = tuple(RAYS[NW][s] | RAYS[NE][s] | RAYS[SW][s] | RAYS[SE][s] for s in range(81))

RANK_BB: tuple[Bitboard, ...] = tuple(511 << (9 * r) for r in range(9))
FILE_COLUMN_BB: tuple[Bitboard, ...] = tuple(sum(1 << (r * 9 + c) for r in range(9)) for c in range(9))
#: Promotion zones (enemy camps) by colour.
ZONE: tuple[Bitboard, Bitboard] = (RANK_BB[0] | RANK_BB[1] | RANK_BB[2], RANK_BB[6] | RANK_BB[7] | RANK_BB[8])


def _columns_mask(cols: int) -> Bitboard:
    bb = 0
    for c in range(9):
        if cols >> c & 1:
            bb |= FILE_COLUMN_BB[c]
    return bb


#: COLUMNS[m]: union of the file columns whose bits are set in the 9-bit mask *m*.
COLUMNS: tuple[Bitboard, ...] = tuple(_columns_mask(m) for m in range(512))


def ray_attack(d: int, sq: int, occupied: Bitboard) -> Bitboard:
    """Squares attacked from *sq* along direction *d*, up to and including the first blocker."""
    ray = RAYS[d][sq]
    blockers = ray & occupied
    if blockers:
        nearest = (blockers & -blockers).bit_length() - 1 if POSITIVE[d] else blockers.bit_length() - 1
        ray ^= RAYS[d][nearest]
    return ray


def rook_attack(sq: int, occupied: Bitboard) -> Bitboard:
    """Squares a rook on *sq* attacks."""
    return (
        ray_attack(N, sq, occupied) | ray_attack(S, sq, occupied)
        | ray_attack(W, sq, occupied) | ray_attack(E, sq, occupied)
    )


def bishop_attack(sq: int, occupied: Bitboard) -> Bitboard:
    """Squares a bishop on *sq* attacks."""
    return (
        ray_attack(NW, sq, occupied) | ray_attack(NE, sq, occupied)
        | ray_attack(SW, sq, occupied) | ray_attack(SE, sq, occupied)
    )


def squares_of(bb: Bitboard) -> list[int]:
    """The squares set in *bb*, in increasing order."""
    result = []
    while bb:
        low = bb & -bb
        result.append(low.bit_length() - 1)
        bb ^= low
    return result
