"""Hands packed into one int, for hand superiority (優越関係) in the transposition table, and
:func:`complete_defender_hand` for problems whose defender holds "all the remaining pieces".

A packed hand keeps each droppable type in its own 8-bit field: seven bits of count under a guard
bit.  Because all the guard bits survive ``(a | GUARDS) - b`` exactly when no field of *b* exceeds
the one of *a*, "hand *a* holds at least hand *b*" is one subtraction and one mask.
"""

from __future__ import annotations

from shogiban.board import Board
from shogiban.errors import ShogibanError
from shogiban.pieces import HAND_TYPES, PIECE_COUNTS, Color, PieceType
from shogiban.position import Position

__all__ = [
    "GUARDS",
    "HAND_ALL",
    "UNIT",
    "complete_defender_hand",
    "hand_count",
    "hand_covers",
    "hand_max",
    "hand_min",
    "hand_with",
    "pack_hand",
    "unpack_hand",
]

#: Bit offset of each droppable piece type's field.
SHIFT = (0, 0, 8, 16, 24, 32, 40, 48)
#: One piece of each type.
UNIT = tuple(1 << s if pt else 0 for pt, s in enumerate(SHIFT))
#: The guard bits above every field.
GUARDS = sum(0x80 << SHIFT[pt] for pt in range(1, 8))
_FIELD = 0x7F
#: Every field at its largest: "any hand" as a bound.
HAND_ALL = sum(_FIELD << SHIFT[pt] for pt in range(1, 8))


def pack_hand(hand: list[int]) -> int:
    """Pack a hand given as counts indexed by piece type (``Position._hands[color]``)."""
    return (
        hand[1] | hand[2] << 8 | hand[3] << 16 | hand[4] << 24 | hand[5] << 32 | hand[6] << 40 | hand[7] << 48
    )


def unpack_hand(packed: int) -> dict[int, int]:
    """``{piece type: count}`` for the non-zero fields of *packed*."""
    return {pt: packed >> SHIFT[pt] & _FIELD for pt in range(1, 8) if packed >> SHIFT[pt] & _FIELD}


def hand_count(packed: int, pt: int) -> int:
    """How many pieces of type *pt* the packed hand holds."""
    return packed >> SHIFT[pt] & _FIELD


def hand_with(packed: int, pt: int, count: int) -> int:
    """*packed* with the count of type *pt* replaced by *count*."""
    shift = SHIFT[pt]
    return packed & ~(_FIELD << shift) | count << shift


def hand_covers(a: int, b: int) -> bool:
    """Whether hand *a* holds at least as many of every type as hand *b*."""
    return ((a | GUARDS) - b) & GUARDS == GUARDS


def hand_max(a: int, b: int) -> int:
    """Field-wise maximum of two packed hands."""
    out = 0
    for s in (0, 8, 16, 24, 32, 40, 48):
        x, y = a >> s & _FIELD, b >> s & _FIELD
        out |= (x if x > y else y) << s
    return out


def hand_min(a: int, b: int) -> int:
    """Field-wise minimum of two packed hands."""
    out = 0
    for s in (0, 8, 16, 24, 32, 40, 48):
        x, y = a >> s & _FIELD, b >> s & _FIELD
        out |= (x if x < y else y) << s
    return out


def box_counts(position: Position, color: int) -> dict[int, int]:
    """Pieces of each hand type that are neither on the board nor in *color*'s hand."""
    used: dict[int, int] = dict.fromkeys(HAND_TYPES, 0)
    for piece in position._board:
        pt = piece & 15
        if pt and pt != 8:
            used[pt - 8 if pt > 8 else pt] += 1
    for pt in HAND_TYPES:
        used[pt] += position._hands[color][pt]
    return {pt: PIECE_COUNTS[PieceType(pt)] - used[pt] for pt in HAND_TYPES}


def complete_defender_hand(board: Board) -> Board:
    """A copy of *board* where the defender (the side not to move) holds every piece that is
    neither on the board nor in the attacker's hand, as tsume problems assume (駒箱の駒すべて).

    >>> from shogiban import Board
    >>> complete_defender_hand(Board("3k5/9/3P5/9/9/9/9/9/9 b G 1")).sfen()
    '3k5/9/3P5/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1'

    :raises ShogibanError: if the position holds more pieces of a kind than the full set.
    """
    attacker = board._turn
    left = box_counts(board, attacker)
    too_many = [pt for pt, n in left.items() if n < 0]
    if too_many:
        names = ", ".join(f"{-left[pt]} extra {_NAMES[pt]}" for pt in too_many)
        raise ShogibanError(f"cannot complete the defender's hand of {board.sfen()!r}: {names} beyond the full set")
    completed = board.copy(stack=False)
    defender = Color(attacker ^ 1)
    for pt, n in left.items():
        completed.set_hand_count(defender, pt, n)
    return completed.copy(stack=False)


_NAMES = {1: "pawn", 2: "lance", 3: "knight", 4: "silver", 5: "bishop", 6: "rook", 7: "gold"}
