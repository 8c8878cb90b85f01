"""Where a variation branches off: the lines of play read so far (KIF/KI2 ``変化：N手``, USEN
``~N.`` sections).

The de-facto rule (SPECS §b.5): a variation replacing move N continues from the most recently
read line that has a move N.  :class:`LineTracker` answers that in amortised constant time and
keeps every node once, however the variations nest:

* Lines that a newer line at least as long hides can never be chosen again and are dropped from
  the stack of candidates, so finding the line is amortised O(1).
* A line stores only its own nodes and refers to the line it shares its start with; finding the
  node at a ply climbs those references with skew-binary jump pointers (Myers), O(log n).
  Copying the shared start instead made a record with a variation at every ply quadratic in time
  and memory.

>>> from shogiban.kifu.game import GameNode
>>> root = GameNode()
>>> tracker = LineTracker(root, 1)
>>> tracker.add(GameNode(root)); tracker.expected_number()
2
>>> tracker.branch(1) is root, tracker.branch(5)
(True, None)
"""

from __future__ import annotations

from shogiban.kifu.game import GameNode

__all__ = ["LineTracker"]


class _Line:
    """A line of play: nodes ``[0, base_len)`` are those of :attr:`parent`'s chain, then
    :attr:`nodes` (index ``base_len`` onwards)."""

    __slots__ = ("base_len", "jump", "nodes", "parent", "rank")

    def __init__(self, parent: _Line | None, base_len: int, nodes: list[GameNode]) -> None:
        self.parent = parent
        self.base_len = base_len
        self.nodes = nodes
        self.rank: int = 0 if parent is None else parent.rank + 1
        self.jump: _Line = self if parent is None else _jump_for(parent)

    @property
    def length(self) -> int:
        return self.base_len + len(self.nodes)

    def owner(self, index: int) -> _Line:
        """The line of this chain whose own nodes hold *index* (``index < length``)."""
        line = self
        while line.base_len > index:
            jump = line.jump
            if jump.base_len > index:
                line = jump  # the owner is above the jump target: skip ahead
            else:
                assert line.parent is not None
                line = line.parent
        return line


def _jump_for(parent: _Line) -> _Line:
    """The skew-binary jump pointer of a child of *parent* (O(log n) ancestor search)."""
    jump = parent.jump
    if parent.rank - jump.rank == jump.rank - jump.jump.rank:
        return jump.jump
    return parent


class LineTracker:
    """The lines read so far, to find where ``変化：N手`` (or a USEN section) branches off.

    :param root: the start node (ply 0).
    :param start_number: the move number of ply 1 (a record may start after move 1).
    """

    def __init__(self, root: GameNode, start_number: int = 1) -> None:
        self.start_number = start_number
        self._stack = [_Line(None, 0, [root])]
        self._longest = 1

    def add(self, node: GameNode) -> None:
        """Note that *node* continues the line being read."""
        line = self._stack[-1]
        nodes = line.nodes
        nodes.append(node)
        length = line.base_len + len(nodes)
        if length > self._longest:
            self._longest = length

    def expected_number(self) -> int:
        """The move number the next move line of the current line should carry."""
        line = self._stack[-1]
        return self.start_number + line.base_len + len(line.nodes) - 1

    def branch(self, number: int) -> GameNode | None:
        """Start a variation replacing move *number*; the node it branches from, or None (and
        nothing changes) if no line read so far has that move."""
        return self.branch_at(number - self.start_number + 1)

    def branch_at(self, ply: int) -> GameNode | None:
        """Start a variation replacing the move at *ply* (1 = the first move); as :meth:`branch`."""
        if ply < 1 or ply >= self._longest:
            return None
        stack = self._stack
        # Lines no longer than the new one (whose length is *ply*) and older are hidden by it.
        while stack[-1].length <= ply:
            stack.pop()
        owner = stack[-1].owner(ply - 1)
        base = owner.nodes[ply - 1 - owner.base_len]
        stack.append(_Line(owner, ply, []))
        return base
