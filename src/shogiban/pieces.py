"""Colours, piece types and pieces.

Piece types are small ints: the six promotable types plus 8 give their promoted forms, so
``promote(pt) == pt + 8``.  On the board a piece is coded ``piece_type | color << 4``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Color(IntEnum):
    """Side: BLACK is sente (先手), who moves first in even games; WHITE is gote (後手)."""

    BLACK = 0
    WHITE = 1

    @property
    def other(self) -> Color:
        """The opponent."""
        return Color(self ^ 1)


BLACK = Color.BLACK
WHITE = Color.WHITE
COLORS = (BLACK, WHITE)


class PieceType(IntEnum):
    """Piece kinds; ``PROM_X == X + 8``."""

    PAWN = 1
    LANCE = 2
    KNIGHT = 3
    SILVER = 4
    BISHOP = 5
    ROOK = 6
    GOLD = 7
    KING = 8
    PROM_PAWN = 9
    PROM_LANCE = 10
    PROM_KNIGHT = 11
    PROM_SILVER = 12
    PROM_BISHOP = 13
    PROM_ROOK = 14


PAWN, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD, KING = (PieceType(i) for i in range(1, 9))
PROM_PAWN, PROM_LANCE, PROM_KNIGHT, PROM_SILVER, PROM_BISHOP, PROM_ROOK = (PieceType(i) for i in range(9, 15))
TOKIN = PROM_PAWN
HORSE = PROM_BISHOP
DRAGON = PROM_ROOK

PIECE_TYPES = tuple(PieceType)
#: Types that can be held in hand, in the canonical SFEN order R B G S N L P.
HAND_TYPES: tuple[PieceType, ...] = (ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN)
#: Maximum number of each hand type in the full set.
PIECE_COUNTS = {PAWN: 18, LANCE: 4, KNIGHT: 4, SILVER: 4, GOLD: 4, BISHOP: 2, ROOK: 2, KING: 2}

_SYMBOLS = ("", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R")
_SYMBOL_TO_TYPE = {s: PieceType(i) for i, s in enumerate(_SYMBOLS) if s}
ENGLISH_NAMES = (
    "", "pawn", "lance", "knight", "silver", "bishop", "rook", "gold", "king",
    "tokin", "promoted lance", "promoted knight", "promoted silver", "horse", "dragon",
)


def can_promote(piece_type: int) -> bool:
    """Whether *piece_type* has a promoted form (pawn, lance, knight, silver, bishop, rook)."""
    return 1 <= piece_type <= 6


def promote(piece_type: int) -> PieceType:
    """The promoted form of *piece_type* (unchanged when it cannot promote)."""
    return PieceType(piece_type + 8) if 1 <= piece_type <= 6 else PieceType(piece_type)


def unpromote(piece_type: int) -> PieceType:
    """The unpromoted form of *piece_type*, as it goes to the hand when captured."""
    return PieceType(piece_type - 8) if piece_type > 8 else PieceType(piece_type)


def is_promoted(piece_type: int) -> bool:
    """Whether *piece_type* is a promoted form."""
    return piece_type > 8


# Piece codes (``piece_type | color << 4``, 0 for an empty square) taken apart, by code.
_TYPE_OF: tuple[int, ...] = tuple(code & 15 if 1 <= code & 15 <= 14 else 0 for code in range(32))
_GOTE_OF: tuple[bool, ...] = tuple(bool(code >> 4) for code in range(32))


def type_of(code: int) -> int:
    """The piece type of the piece code *code* (as :attr:`shogiban.Board.piece_codes` holds them),
    0 for an empty square: ``type_of(Piece(ROOK, WHITE).code) == ROOK``."""
    return _TYPE_OF[code]


def owner_of(code: int) -> Color:
    """The owner of the piece code *code* (not 0): ``owner_of(Piece(ROOK, WHITE).code) == WHITE``."""
    return WHITE if _GOTE_OF[code] else BLACK


def is_gote(code: int) -> bool:
    """Whether the piece code *code* is a gote (white) piece; False for an empty square."""
    return _GOTE_OF[code]


def code_of(piece_type: int, color: int) -> int:
    """The piece code of a *piece_type* of *color*: the inverse of :func:`type_of` and
    :func:`owner_of`."""
    return piece_type | color << 4


def piece_type_symbol(piece_type: int) -> str:
    """Uppercase SFEN letter(s) of *piece_type*: ``'P'``, ``'+R'``."""
    return _SYMBOLS[piece_type]


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece of a colour, e.g. ``Piece(PieceType.ROOK, Color.WHITE)``."""

    piece_type: PieceType
    """Kind of piece."""
    color: Color
    """Owner."""

    def symbol(self) -> str:
        """SFEN symbol: uppercase for sente, lowercase for gote (``'+p'``)."""
        s = _SYMBOLS[self.piece_type]
        return s if self.color == BLACK else s.lower()

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """Parse an SFEN piece symbol such as ``'P'``, ``'+b'``.

        :raises ValueError: if *symbol* is not a piece symbol.
        """
        upper = symbol.upper()
        if upper not in _SYMBOL_TO_TYPE or (len(symbol) == 2 and symbol[0] != "+"):
            raise ValueError(f"invalid piece symbol: {symbol!r}")
        return cls(_SYMBOL_TO_TYPE[upper], BLACK if symbol == upper else WHITE)

    @property
    def code(self) -> int:
        """Internal board code ``piece_type | color << 4``."""
        return int(self.piece_type) | int(self.color) << 4

    @classmethod
    def from_code(cls, code: int) -> Piece:
        """Inverse of :attr:`code`."""
        return cls(PieceType(code & 15), Color(code >> 4))

    def __str__(self) -> str:
        return self.symbol()
