"""Where pieces may be moved on the web board: the ``dests``/``dropDests`` maps of ``board.js``.

The board is rule-free; the server tells it which targets to offer.  Lessons sometimes offer
illegal targets too, so that the learner can try them and read the rules core's refusal.

>>> from shogiban import Board, Move
>>> board = Board("4k4/9/9/9/9/9/9/9/4K4 b P 1")
>>> dests, drops = move_targets([Move.from_usi("5i5h"), Move.from_usi("P*5e")])
>>> dests, drops
({'5i': ['5h']}, {'P': ['5e']})
"""

from __future__ import annotations

from collections.abc import Iterable

from shogiban.board import Board
from shogiban.move import Move
from shogiban.pieces import piece_type_symbol
from shogiban.squares import SQUARE_NAMES


def move_targets(moves: Iterable[Move]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """``(dests, drop_dests)`` for *moves*: ``{"7g": ["7f"], "2c": ["2b+", "2b"]}`` and
    ``{"P": ["5e"]}`` (promoting targets end in ``+``; each list keeps the moves' order)."""
    dests: dict[str, list[str]] = {}
    drops: dict[str, list[str]] = {}
    for move in moves:
        to = SQUARE_NAMES[move.to_square]
        if move.drop is not None:
            targets = drops.setdefault(piece_type_symbol(move.drop), [])
            if to not in targets:
                targets.append(to)
            continue
        assert move.from_square is not None
        target = to + ("+" if move.promotion else "")
        listed = dests.setdefault(SQUARE_NAMES[move.from_square], [])
        if target not in listed:
            listed.append(target)
    return dests, drops


def legal_targets(board: Board) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """:func:`move_targets` of every legal move on *board*."""
    return move_targets(board.legal_moves)
