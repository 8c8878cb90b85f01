"""Moves: a board move with optional promotion, or a drop from the hand.

Moves are immutable and interned: there is one :class:`Move` object per distinct move, so they
are cheap to create, compare and hash.  Internally a move is the int ``code``::

    to | from << 7 | promotion << 14     (from = 81 + piece type for a drop)
"""

from __future__ import annotations

from typing import Any

from shogiban.errors import InvalidMoveError
from shogiban.pieces import PieceType
from shogiban.squares import SQUARE_NAMES, Square

_DROP_LETTERS = "_PLNSBRG"
_SQUARE_INDEX = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


class Move:
    """A board move (``from_square`` set) or a drop (``drop`` set).  The arguments are keyword-only:
    ``Move(from_square=56, to_square=47)`` (7g7f), ``Move(to_square=40, drop=PieceType.PAWN)``.

    >>> Move.from_usi("7g7f") == Move(to_square=47, from_square=56)
    True
    >>> Move(to_square=40, drop=PieceType.PAWN)
    Move.from_usi('P*5e')
    """

    __slots__ = ("code",)
    code: int

    def __new__(
        cls,
        *,
        to_square: Square,
        from_square: Square | None = None,
        promotion: bool = False,
        drop: PieceType | int | None = None,
    ) -> Move:
        if not (isinstance(to_square, int) and 0 <= to_square < 81):
            raise InvalidMoveError(f"invalid move: to_square {to_square!r} is not a square 0..80")
        if drop is not None:
            if from_square is not None or promotion or not (1 <= int(drop) <= 7):
                raise InvalidMoveError(
                    f"invalid move: drop {drop!r} needs a droppable piece type, no from_square and no promotion"
                )
            return _MOVES[to_square | (81 + int(drop)) << 7]  # type: ignore[return-value]
        if not (isinstance(from_square, int) and 0 <= from_square < 81) or from_square == to_square:
            raise InvalidMoveError(f"invalid move: from_square {from_square!r} to {to_square!r}")
        return _MOVES[to_square | from_square << 7 | bool(promotion) << 14]  # type: ignore[return-value]

    @staticmethod
    def from_code(code: int) -> Move:
        """The move with internal *code* (no validation beyond the table lookup)."""
        move = _MOVES[code]
        if move is None:
            raise InvalidMoveError(f"invalid move code: {code!r}")
        return move

    @classmethod
    def from_usi(cls, usi: str) -> Move:
        """Parse USI move text: ``7g7f``, ``8h2b+`` or ``P*5e``.

        :raises InvalidMoveError: if *usi* is not syntactically valid.
        """
        move = _USI_TO_MOVE.get(usi) if isinstance(usi, str) else None
        if move is None:
            raise InvalidMoveError(
                f"invalid usi move: {usi!r} (expected like '7g7f', '8h2b+' or 'P*5e')"
            )
        return move

    @property
    def to_square(self) -> Square:
        """Destination square."""
        return self.code & 127

    @property
    def from_square(self) -> Square | None:
        """Origin square, or None for a drop."""
        frm = self.code >> 7 & 127
        return frm if frm < 81 else None

    @property
    def drop(self) -> PieceType | None:
        """Dropped piece type, or None for a board move."""
        frm = self.code >> 7 & 127
        return PieceType(frm - 81) if frm >= 81 else None

    @property
    def promotion(self) -> bool:
        """Whether the moving piece promotes."""
        return bool(self.code >> 14)

    def with_promotion(self, promotion: bool = True) -> Move:
        """This board move with (or without) promotion.

        :raises InvalidMoveError: for a drop, which never promotes.
        """
        if self.code >> 7 & 127 >= 81:
            raise InvalidMoveError(f"invalid move: the drop {self.usi()!r} cannot promote")
        return _MOVES[self.code & 16383 | bool(promotion) << 14]  # type: ignore[return-value]

    def is_drop(self) -> bool:
        """Whether this move drops a piece from the hand."""
        return self.code >> 7 & 127 >= 81

    def usi(self) -> str:
        """USI text of the move."""
        return _USI[self.code]

    def __repr__(self) -> str:
        return f"Move.from_usi({_USI[self.code]!r})"

    def __str__(self) -> str:
        return _USI[self.code]

    def __hash__(self) -> int:
        return self.code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other.code == self.code

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Move is immutable")

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (Move.from_code, (self.code,))

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Move:
        return self


def _make(code: int) -> Move:
    move = object.__new__(Move)
    object.__setattr__(move, "code", code)
    return move


def _build() -> tuple[list[Move | None], dict[int, str], dict[str, Move]]:
    moves: list[Move | None] = [None] * (1 << 15)
    usi: dict[int, str] = {}
    for to in range(81):
        for frm in range(81):
            if frm == to:
                continue
            for promo in (0, 1):
                code = to | frm << 7 | promo << 14
                moves[code] = _make(code)
                usi[code] = SQUARE_NAMES[frm] + SQUARE_NAMES[to] + ("+" if promo else "")
        for pt in range(1, 8):
            code = to | (81 + pt) << 7
            moves[code] = _make(code)
            usi[code] = _DROP_LETTERS[pt] + "*" + SQUARE_NAMES[to]
    by_text: dict[str, Move] = {}
    for code, text in usi.items():
        move = moves[code]
        assert move is not None
        by_text[text] = move
    return moves, usi, by_text


_MOVES, _USI, _USI_TO_MOVE = _build()
#: MOVES[code]: the interned move for an internal code (None where no move has that code).
MOVES: list[Move | None] = _MOVES


def board_move(from_square: Square, to_square: Square, promotion: bool = False) -> Move:
    """The board move *from_square* -> *to_square*, for code that already knows both are distinct
    squares (no validation: fast; use ``Move(...)`` otherwise)."""
    return _MOVES[to_square | from_square << 7 | promotion << 14]  # type: ignore[return-value]


def drop_move(to_square: Square, piece_type: PieceType | int) -> Move:
    """The drop of *piece_type* (1..7) on *to_square*, without validation (see :func:`board_move`)."""
    return _MOVES[to_square | (81 + piece_type) << 7]  # type: ignore[return-value]


def move_code(from_square: Square, to_square: Square, promotion: bool = False) -> int:
    """The internal code of a board move (for readers that play codes: see :mod:`shogiban.position`)."""
    return to_square | from_square << 7 | promotion << 14


def drop_code(to_square: Square, piece_type: PieceType | int) -> int:
    """The internal code of a drop of *piece_type* on *to_square*."""
    return to_square | (81 + piece_type) << 7


def code_parts(code: int) -> tuple[int, int, bool]:
    """``(to, origin, promotion)`` of a move code; *origin* is the from-square, or 81 + the piece
    type for a drop."""
    return code & 127, code >> 7 & 127, bool(code >> 14)


def move_usi(code: int) -> str:
    """USI text for an internal move code."""
    return _USI[code]
