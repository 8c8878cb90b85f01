"""One move in every notation a player may choose to read, for front ends with a notation setting.

>>> from shogiban import Board
>>> board = Board()
>>> move_forms(board, board.parse_usi("7g7f"))
{'japanese': '▲７六歩', 'western': 'P-7f', 'kitao': '歩-76', 'csa': '+7776FU', 'usi': '7g7f'}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

from shogiban.notation.csa_move import make_csa_move
from shogiban.notation.japanese import make_ki2_move
from shogiban.notation.western import make_western

if TYPE_CHECKING:
    from shogiban.board import Board
    from shogiban.move import Move
    from shogiban.squares import Square

__all__ = ["NOTATIONS", "Notation", "move_forms"]

Notation = Literal["japanese", "western", "kitao", "csa", "usi"]
#: The notations, in the order a settings menu lists them: Japanese (KI2, ``▲７六歩``), western
#: (Hodges, ``P-7f``), Kitao-Kawasaki (``歩-76``), CSA (``+7776FU``) and USI (``7g7f``).
NOTATIONS: Final[tuple[Notation, ...]] = ("japanese", "western", "kitao", "csa", "usi")


def move_forms(board: Board, move: Move, *, previous_to: Square | None = None) -> dict[str, str]:
    """The legal *move*, about to be played on *board*, in each of :data:`NOTATIONS`.

    :param previous_to: destination of the previous move when *board* does not hold it (for
        同 in Japanese and the Kitao-Kawasaki short form); by default the board's last move.
    :raises IllegalMoveError: if *move* is not legal on *board*.
    """
    return {
        "japanese": make_ki2_move(board, move, previous_to=previous_to),
        "western": make_western(board, move, style="hodges"),
        "kitao": make_western(board, move, style="kitao", previous_to=previous_to),
        "csa": make_csa_move(board, move),
        "usi": move.usi(),
    }
