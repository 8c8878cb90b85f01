"""Squares, named as in USI (``7g``) and numbered 0..80.

The numbering follows SFEN order: rank ``a`` (gote's back rank) first, and inside a rank
file 9 first::

      9   8   7   6   5   4   3   2   1
    +---+---+---+---+---+---+---+---+---+
    | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |  a
    | 9 |10 |11 |12 |13 |14 |15 |16 |17 |  b
    ...
    |72 |73 |74 |75 |76 |77 |78 |79 |80 |  i
    +---+---+---+---+---+---+---+---+---+

So ``9a`` is 0, ``1a`` is 8, ``5e`` is 40 and ``1i`` is 80.  Sente (black) moves towards rank a.
"""

from __future__ import annotations

from typing import TypeAlias

from shogiban.errors import InvalidSquareError

Square: TypeAlias = int

SQUARES: tuple[Square, ...] = tuple(range(81))
RANK_LETTERS = "abcdefghi"


def make_square(file: int, rank: int) -> Square:
    """Return the square on *file* (1..9, right to left for sente) and *rank* (1..9, top down)."""
    if not (1 <= file <= 9 and 1 <= rank <= 9):
        raise InvalidSquareError(f"invalid square: file {file!r} rank {rank!r} (both must be 1..9)")
    return (rank - 1) * 9 + (9 - file)


def square_file(square: Square) -> int:
    """File number 1..9 of *square*."""
    return 9 - square % 9


def square_rank(square: Square) -> int:
    """Rank number 1..9 of *square* (1 = rank a)."""
    return square // 9 + 1


SQUARE_NAMES: tuple[str, ...] = tuple(
    f"{square_file(sq)}{RANK_LETTERS[square_rank(sq) - 1]}" for sq in SQUARES
)
_NAME_TO_SQUARE = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def square_name(square: Square) -> str:
    """USI name of *square*, e.g. ``'7g'``."""
    return SQUARE_NAMES[square]


def parse_square(name: str) -> Square:
    """Parse a USI square name such as ``'7g'``.

    :raises InvalidSquareError: if *name* is not ``9a`` .. ``1i``.
    """
    try:
        return _NAME_TO_SQUARE[name]
    except (KeyError, TypeError):
        raise InvalidSquareError(f"invalid square: {name!r} (expected file 1-9 and rank a-i, like '7g')") from None


def in_promotion_zone(square: Square, color: int) -> bool:
    """Whether *square* is in the promotion zone (enemy camp) of *color*."""
    return square < 27 if color == 0 else square >= 54
