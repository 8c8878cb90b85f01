"""shogiban: shogi (将棋) rules, records, engine and play, in Python.

>>> from shogiban import Board
>>> board = Board()
>>> board.legal_moves.count()
30
"""

from __future__ import annotations

from shogiban.board import Board, LegalMoveGenerator
from shogiban.errors import (
    AmbiguousMoveError,
    EngineError,
    EngineTerminatedError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidSfenError,
    InvalidSquareError,
    KifuParseError,
    ShogibanError,
)
from shogiban.move import Move
from shogiban.outcome import EnteringKingRule, Outcome, Termination
from shogiban.pieces import (
    BISHOP,
    BLACK,
    COLORS,
    DRAGON,
    GOLD,
    HAND_TYPES,
    HORSE,
    KING,
    KNIGHT,
    LANCE,
    PAWN,
    PIECE_TYPES,
    PROM_BISHOP,
    PROM_KNIGHT,
    PROM_LANCE,
    PROM_PAWN,
    PROM_ROOK,
    PROM_SILVER,
    ROOK,
    SILVER,
    TOKIN,
    WHITE,
    Color,
    Piece,
    PieceType,
)
from shogiban.sfen import STARTING_SFEN
from shogiban.squares import (
    SQUARE_NAMES,
    SQUARES,
    Square,
    make_square,
    parse_square,
    square_file,
    square_name,
    square_rank,
)

__version__ = "0.1.0"

__all__ = [
    "BISHOP", "BLACK", "COLORS", "DRAGON", "GOLD", "HAND_TYPES", "HORSE", "KING", "KNIGHT", "LANCE", "PAWN",
    "PIECE_TYPES", "PROM_BISHOP", "PROM_KNIGHT", "PROM_LANCE", "PROM_PAWN", "PROM_ROOK", "PROM_SILVER", "ROOK",
    "SILVER", "SQUARES", "SQUARE_NAMES", "STARTING_SFEN", "TOKIN", "WHITE",
    "AmbiguousMoveError", "Board", "Color", "EngineError", "EngineTerminatedError", "EnteringKingRule",
    "IllegalMoveError", "InvalidMoveError", "InvalidSfenError", "InvalidSquareError", "KifuParseError",
    "LegalMoveGenerator", "Move", "Outcome", "Piece", "PieceType", "ShogibanError", "Square", "Termination",
    "__version__", "make_square", "parse_square", "square_file", "square_name", "square_rank",
]
