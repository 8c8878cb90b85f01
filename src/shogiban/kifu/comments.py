"""Comment conventions shared by the writers and readers.

Records cannot always hold an illegal move: CSA and JKF drop it, and KIF programs refuse a line
they cannot play.  Writers therefore put it in the result's comment as ``反則手: <usi move>``
(after the spec's advice to explain a 反則負け in a comment), and readers restore it from there.
"""

from __future__ import annotations

import re
from dataclasses import replace

from shogiban.board import Board
from shogiban.errors import InvalidMoveError
from shogiban.kifu.game import Game, GameNode
from shogiban.kifu.results import ResultKind
from shogiban.kifu.walk import positions_before
from shogiban.move import Move
from shogiban.notation._legal import refusal_of

ILLEGAL_PREFIX = "反則手: "
_ILLEGAL_RE = re.compile(r"反則手[:：]\s*(\S+)")


def result_comment(node: GameNode, board: Board) -> str:
    """The comment to write for the result *node* (after *board*'s moves): its own comment,
    preceded by the illegal move when the result keeps one."""
    result = node.result
    if result is None or result.illegal_move is None:
        return node.comment
    line = ILLEGAL_PREFIX + result.illegal_move.usi()
    return f"{line}\n{node.comment}" if node.comment else line


def restore_illegal_moves(game: Game) -> None:
    """Give foul results written by :func:`result_comment` their illegal move back."""
    found: dict[GameNode, Move] = {}
    for node in game.walk():
        result = node.result
        if result is None or result.kind is not ResultKind.ILLEGAL or result.illegal_move is not None:
            continue
        m = _ILLEGAL_RE.fullmatch(node.comment.partition("\n")[0].strip())
        if m is None:
            continue
        try:
            found[node] = Move.from_usi(m.group(1))
        except InvalidMoveError:
            continue
    # The positions of all of them in one walk: one board per result made them quadratic.
    for node, board in positions_before(game, found):
        move = found[node]
        if board.is_legal(move):
            continue
        result = node.result
        assert result is not None
        node.result = replace(result, illegal_move=move, detail=result.detail or refusal_of(board, move).message)
        node.comment = node.comment.partition("\n")[2]
