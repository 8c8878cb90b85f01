"""Every line of a record in the order KIF and KI2 write their ``変化`` blocks (and USEN its
sections): the main line, then the alternatives to its moves from the last move back to the
first, each followed at once by its own alternatives ("deepest first", as Kifu for Windows
writes them and every reader of the ``変化：N手`` rule expects).

:class:`LineWalk` does it without recursion (however deep variations nest) and in linear time:
its :attr:`~LineWalk.board` follows the walk by playing and taking back each move once, so a
writer never rebuilds a position from the start.

>>> from shogiban import Move
>>> from shogiban.kifu.game import Game
>>> game = Game()
>>> a = game.add_variation(Move.from_usi("7g7f")); b = a.add_variation(Move.from_usi("3c3d"))
>>> _ = a.add_variation(Move.from_usi("8c8d")); _ = game.add_variation(Move.from_usi("2g2f"))
>>> [(ply, [n.move.usi() for n in nodes]) for ply, nodes in LineWalk(game, positions=False).lines()]
[(1, ['7g7f', '3c3d']), (2, ['8c8d']), (1, ['2g2f'])]
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from enum import Enum

from shogiban.board import Board
from shogiban.kifu.game import Game, GameNode

__all__ = ["LineWalk", "Step", "positions_before"]


class Step(Enum):
    """What :meth:`LineWalk.steps` reports."""

    LINE = "line"
    """A line starts with this node (its :attr:`~LineWalk.board` is before the node)."""
    NODE = "node"
    """This node is next on the line; the board is the position before it."""
    END = "end"
    """The line ended with this node; the board is the position after it."""


class LineWalk:
    """Walks the lines of *game* (see the module docstring).

    :param positions: keep :attr:`board` at the position of each step (off for writers that
        need only the moves).
    """

    def __init__(self, game: Game, *, positions: bool = True) -> None:
        self.game = game
        self.positions = positions
        self.board: Board = game.start_board()
        """The position of the current step (see :class:`Step`); do not change it."""

    def lines(self) -> Iterator[tuple[int, list[GameNode]]]:
        """``(ply of the first node, nodes)`` for each line, in writing order."""
        nodes: list[GameNode] = []
        ply = 0
        for step, step_ply, node in self.steps():
            if step is Step.LINE:
                nodes, ply = [], step_ply
            elif step is Step.NODE:
                nodes.append(node)
            else:
                yield ply, nodes

    def steps(self) -> Iterator[tuple[Step, int, GameNode]]:
        """``(step, ply, node)`` for every node of every line, in writing order."""
        root = self.game.root
        if not root.variations:
            return
        # Work items: a line to write (its first node and ply, and whether it is the main line),
        # or a number of moves to take back.
        work: list[tuple[GameNode, int, bool] | int] = [(root.variations[0], 1, True)]
        while work:
            item = work.pop()
            if isinstance(item, int):
                self._take_back(item)
                continue
            first, ply, main = item
            line = [first, *first.mainline()]
            yield Step.LINE, ply, first
            for offset, node in enumerate(line):
                yield Step.NODE, ply + offset, node
                if node.move is not None and self.positions:
                    self.board.push(node.move)
            yield Step.END, ply + len(line) - 1, line[-1]
            # Writing order after the line: for each node from the last back, take its move back,
            # then its alternatives (each restores the board when done).  Pushed in reverse.
            for offset, node in enumerate(line):
                parent = node.parent
                assert parent is not None
                if offset or main:
                    work.extend((alternative, ply + offset, False) for alternative in reversed(parent.variations[1:]))
                work.append(1 if node.move is not None else 0)

    def _take_back(self, moves: int) -> None:
        if self.positions:
            for _ in range(moves):
                self.board.pop()


def positions_before(game: Game, targets: Collection[GameNode]) -> Iterator[tuple[GameNode, Board]]:
    """``(node, board)`` for each of the *targets*, *board* being the position before the node
    (its parent's), with the moves that led there in its history: one walk down the branches
    that lead to the targets, each move played and taken back once.  Do not change the board."""
    if not targets:
        return
    wanted: set[GameNode] = set()
    for target in targets:
        node: GameNode | None = target
        while node is not None and node not in wanted:
            wanted.add(node)
            node = node.parent
    board = game.start_board()
    stack: list[tuple[GameNode, bool]] = [(game.root, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            if node.move is not None:
                board.pop()
            continue
        if node in targets:
            yield node, board
        if node.move is not None:
            board.push(node.move)
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node.variations) if child in wanted)
