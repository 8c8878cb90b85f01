"""CSA move text, e.g. ``+7776FU``, ``+8822UM``, ``-0055KA``.

A CSA move is the side (``+`` sente, ``-`` gote), the origin (``00`` for a drop), the destination
and the piece **after** the move: a promotion is seen from the piece changing (``+8822UM`` is the
bishop on 8h promoting on 2b).

>>> from shogiban import Board
>>> board = Board()
>>> make_csa_move(board, board.parse_usi("7g7f"))
'+7776FU'
>>> parse_csa_move(board, "+2726FU")
Move.from_usi('2g2f')

:raises InvalidMoveError: for text that is not a CSA move.
:raises IllegalMoveError: for a move that is not legal here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from shogiban.errors import InvalidMoveError, Refusal
from shogiban.move import Move, board_move, drop_move
from shogiban.notation._legal import illegal, legal_codes, refusal_of
from shogiban.notation.excerpt import excerpt
from shogiban.pieces import ENGLISH_NAMES, PieceType, owner_of, promote, type_of
from shogiban.rules import describe_refusal
from shogiban.squares import SQUARE_NAMES

if TYPE_CHECKING:
    from shogiban.board import Board

__all__ = ["CSA_PIECE_NAMES", "CSA_PIECE_TYPES", "make_csa_move", "parse_csa_move"]

P = PieceType
#: Two-letter CSA piece names.
CSA_PIECE_NAMES: Final[dict[PieceType, str]] = {
    P.PAWN: "FU", P.LANCE: "KY", P.KNIGHT: "KE", P.SILVER: "GI", P.GOLD: "KI", P.BISHOP: "KA", P.ROOK: "HI",
    P.KING: "OU", P.PROM_PAWN: "TO", P.PROM_LANCE: "NY", P.PROM_KNIGHT: "NK", P.PROM_SILVER: "NG",
    P.PROM_BISHOP: "UM", P.PROM_ROOK: "RY",
}
#: CSA piece name -> piece type.
CSA_PIECE_TYPES: Final[dict[str, PieceType]] = {name: pt for pt, name in CSA_PIECE_NAMES.items()}

_MOVE_RE = re.compile(r"^([+-]?)([0-9])([0-9])([1-9])([1-9])([A-Z]{2})$")


def _csa_square(sq: int) -> str:
    return f"{9 - sq % 9}{sq // 9 + 1}"


def make_csa_move(board: Board, move: Move) -> str:
    """CSA text of *move* played from *board*, naming the piece after the move.

    Any move of a piece of the side to move is written (records may hold illegal moves).

    :raises IllegalMoveError: if the side to move has no such piece (or none in hand).
    """
    color = board.side_to_move
    sign = "+-"[color]
    to = _csa_square(move.to_square)
    if move.drop is not None:
        if not board.hand_counts(color)[move.drop]:
            raise illegal(board, describe_refusal(board, move, "no_piece_in_hand"), move)
        return f"{sign}00{to}{CSA_PIECE_NAMES[move.drop]}"
    frm = move.from_square
    assert frm is not None
    piece = board.piece_codes[frm]
    if not piece or owner_of(piece) != color:
        raise illegal(board, _no_piece(board, frm, move.to_square), move)
    after = promote(type_of(piece)) if move.promotion else PieceType(type_of(piece))
    return f"{sign}{_csa_square(frm)}{to}{CSA_PIECE_NAMES[after]}"


def parse_csa_move(board: Board, text: str) -> Move:
    """Parse CSA move text (``+7776FU``, ``-0055KA``; the sign may be left out) and check that it is
    legal on *board*.

    :raises InvalidMoveError: if *text* is not a CSA move.
    :raises IllegalMoveError: if the sign is not the side to move's, the piece does not match, or
        the move is illegal.
    """
    match = _MOVE_RE.match(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise InvalidMoveError(f"invalid csa move: {excerpt(text)} (expected like '+7776FU' or '-0055KA')")
    sign, f_file, f_rank, t_file, t_rank, name = match.groups()
    named = CSA_PIECE_TYPES.get(name)
    if named is None:
        raise InvalidMoveError(f"invalid csa move: {excerpt(text)} (unknown piece {excerpt(name)})")
    color = board.side_to_move
    if sign and sign != "+-"[color]:
        why = f"it is {'+-'[color]}'s turn"
        raise illegal(board, Refusal("wrong_side", {"side": ("sente", "gote")[color]}, why), text=text)
    to = (int(t_rank) - 1) * 9 + 9 - int(t_file)
    if f_file == "0" and f_rank == "0":
        if named > 7:
            raise InvalidMoveError(f"invalid csa move: {excerpt(text)} (a {ENGLISH_NAMES[named]} cannot be dropped)")
        move = drop_move(to, named)
    elif f_file == "0" or f_rank == "0":
        raise InvalidMoveError(f"invalid csa move: {excerpt(text)} (origin {f_file + f_rank!r} is not a square or 00)")
    else:
        frm = (int(f_rank) - 1) * 9 + 9 - int(f_file)
        if frm == to:
            raise InvalidMoveError(f"invalid csa move: {excerpt(text)} (origin and destination are the same)")
        piece = board.piece_codes[frm]
        if not piece or owner_of(piece) != color:
            raise illegal(board, _no_piece(board, frm, to), text=text)
        pt = type_of(piece)
        if named == pt:
            promotion = False
        elif 1 <= pt <= 6 and named == promote(pt):
            promotion = True
        else:
            why = f"the piece on {SQUARE_NAMES[frm]} is {CSA_PIECE_NAMES[PieceType(pt)]}, which cannot become {name}"
            raise illegal(board, Refusal("wrong_piece", {"from_square": frm, "square": to, "piece": named}, why),
                          text=text)
        move = board_move(frm, to, promotion)
    if move.code not in legal_codes(board):
        raise illegal(board, refusal_of(board, move), move, text)
    return move


def _no_piece(board: Board, frm: int, to: int) -> Refusal:
    """``no_piece`` or ``not_your_piece`` for a move from *frm*, as push_usi says it."""
    code = "not_your_piece" if board.piece_codes[frm] else "no_piece"
    refusal = describe_refusal(board, board_move(frm, to), code)
    # The words the CSA readers have always used.
    return Refusal(code, refusal.params, f"no piece of the side to move on {SQUARE_NAMES[frm]}")
