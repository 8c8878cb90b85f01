"""``solve()``: the shortest mate by continuous checks, its line, and whether it is unique."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Literal

from shogiban.board import Board
from shogiban.errors import ShogibanError
from shogiban.move import MOVES, Move
from shogiban.tsume.dfpn import UNBOUNDED, DfPn, SearchAbortedError
from shogiban.tsume.pv import Alternative, exact_line, solution, table_line
from shogiban.tsume.verify import check_mate_line

__all__ = ["TsumeError", "TsumeResult", "solve"]

Status = Literal["mate", "nomate", "timeout", "unknown"]
# Extra time granted to turn a proof into a line after the deadline (at least this many seconds,
# or half the timeout when that is longer).
_LINE_GRACE = 0.5
# No length limit (in plies) unless the caller sets one.
_NO_LIMIT = 1 << 16
# Nodes spent before the first probe without a depth bound.
_FIRST_PROBE = 2000


class TsumeError(ShogibanError):
    """A position that cannot be a mate problem (no king to mate, the defender already in check)."""

    code = "tsume"


@dataclass
class TsumeResult:
    """What :func:`solve` found.

    ``status`` is ``"mate"`` (``moves`` holds the line), ``"nomate"`` (no mate by continuous checks
    exists at any length), ``"timeout"`` (time ran out or the stop event was set) or ``"unknown"``
    (the node budget or length limit was reached first).
    """

    status: Status
    moves: list[Move] = field(default_factory=list)
    """The mate line from the position, attacker first (empty unless mate)."""
    length: int = 0
    """Plies of the mate line (0 unless mate)."""
    unique: bool | None = None
    """Whether no other attacker move on the line mates in time; None when not checked."""
    alternatives: list[Alternative] = field(default_factory=list)
    """The 余詰 found: where on the line another attacker move also mates in time."""
    nodes: int = 0
    """Nodes searched."""
    time: float = 0.0
    """Seconds spent."""

    def usi(self) -> str:
        """The mate line as space-separated USI moves."""
        return " ".join(move.usi() for move in self.moves)


def _moves(codes: list[int]) -> list[Move]:
    out = []
    for code in codes:
        move = MOVES[code]
        assert move is not None
        out.append(move)
    return out


def _validate(board: Board) -> None:
    attacker = board._turn
    if board._kings[attacker ^ 1] < 0:
        raise TsumeError(f"no mate problem: {board.sfen()!r} (the side not to move has no king to mate)")
    if board._is_attacked(board._kings[attacker ^ 1], attacker, board._occ[0] | board._occ[1]):
        raise TsumeError(
            f"no mate problem: {board.sfen()!r} (the side not to move is already in check)"
        )


def solve(
    board: Board,
    *,
    timeout: float | None = None,
    max_nodes: int | None = None,
    stop: threading.Event | None = None,
    conventions: bool = True,
    max_length: int | None = None,
    check_unique: bool = True,
) -> TsumeResult:
    """Find the shortest mate by continuous checks for the side to move of *board*.

    The attacker is the side to move and the defender holds the hand the board gives it (use
    :func:`~shogiban.tsume.complete_defender_hand` for problems whose defender holds all the
    remaining pieces).  The defender chooses the longest resistance; under *conventions* futile
    interpositions (無駄合) are not counted (see :mod:`shogiban.tsume.futile`); without them every
    legal interposition counts, as in a game.  The line is verified by replay before it is
    returned, and every attacker move off it that also mates in time is listed as an
    :class:`~shogiban.tsume.pv.Alternative` (余詰).

    :param timeout: seconds to search (turning a found proof into its line may take a little
        longer).
    :param max_nodes: node budget.
    :param stop: an event that ends the search when set (status ``"timeout"``).
    :param max_length: give up (status ``"unknown"``) beyond this many plies.
    :param check_unique: look for 余詰 on the line (set False when only the mate matters, as for
        USI ``go mate``: ``unique`` is then None).
    :raises TsumeError: if the defender has no king or is already in check.

    >>> from shogiban import Board
    >>> result = solve(Board("3k5/9/3P5/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"))
    >>> result.status, result.usi(), result.unique
    ('mate', 'G*6b', True)
    """
    start = time.monotonic()
    _validate(board)
    pos = board.copy(stack=False)
    deadline = start + timeout if timeout is not None else None
    searcher = DfPn(pos, conventions=conventions, deadline=deadline, stop=stop, max_nodes=max_nodes)
    limit = max_length if max_length is not None else _NO_LIMIT
    try:
        status, length = _shortest(searcher, limit)
    except SearchAbortedError as aborted:
        status, length = ("unknown" if aborted.reason == "nodes" else "timeout"), 0
    if status != "mate":
        return TsumeResult(status, nodes=searcher.nodes, time=time.monotonic() - start)

    codes, alternatives = _line(searcher, length, timeout, check_unique, stop, max_nodes)
    problem = check_mate_line(pos, _moves(codes), conventions=conventions)
    if problem is not None:  # pragma: no cover - would be a solver bug
        raise AssertionError(f"solver produced a bad line for {board.sfen()!r}: {problem}")
    unique = None if alternatives is None else not alternatives
    return TsumeResult(
        "mate",
        _moves(codes),
        len(codes),
        unique,
        alternatives or [],
        nodes=searcher.nodes,
        time=time.monotonic() - start,
    )


def _shortest(searcher: DfPn, limit: int) -> tuple[Status, int]:
    """Iterate the depth bound 1, 3, 5, ... up to *limit*: the first bound with a proof is the
    shortest mate.  Now and then between iterations, a probe without a bound (a quarter of the
    nodes spent so far) settles "no mate at all" when checks could go on for ever, and bounds the
    length when it finds a mate."""
    next_probe = _FIRST_PROBE
    depth = 1
    while depth <= limit:
        pn, _dn, limited = searcher.prove(depth)
        if pn == 0:
            return "mate", depth
        if not limited:
            return "nomate", 0
        if searcher.nodes >= next_probe:
            probed = searcher.probe(max(500, searcher.nodes // 4))
            if probed is not None:
                if probed[1] == 0 and not probed[2]:
                    return "nomate", 0
                if probed[0] == 0:
                    key, hand = searcher.root_key()
                    entry = searcher.lookup(key, hand, UNBOUNDED)
                    if entry is not None and entry[1] == 0:
                        limit = min(limit, entry[3])
            next_probe = searcher.nodes * 4
        depth += 2
    return "unknown", 0


def _line(
    searcher: DfPn,
    length: int,
    timeout: float | None,
    check_unique: bool,
    stop: threading.Event | None,
    max_nodes: int | None,
) -> tuple[list[int], list[Alternative] | None]:
    """The mate line and its 余詰 (None when not looked for or out of time).

    Turning the proof into an exact line gets a little time and nodes beyond the limits; if even
    those run out, or the stop event is set, the line is read from the table instead (at once).
    The 余詰 search keeps to the caller's limits.
    """
    deadline = searcher.deadline
    if timeout is not None:
        searcher.deadline = max(deadline or 0.0, time.monotonic() + max(_LINE_GRACE, timeout / 2))
    searcher.max_nodes = None if max_nodes is None else max(max_nodes, searcher.nodes) + max(10_000, max_nodes // 2)
    try:
        if stop is not None and stop.is_set():
            raise SearchAbortedError("stop")
        codes = exact_line(searcher, length)
    except SearchAbortedError:
        return table_line(searcher, length), None
    finally:
        searcher.deadline = deadline
        searcher.max_nodes = max_nodes
    if not check_unique or len(codes) != length:
        return codes, None
    try:
        return solution(searcher, length, check_unique=True, codes=codes)
    except SearchAbortedError:
        return codes, None
