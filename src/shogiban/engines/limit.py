"""When an engine should stop thinking: :class:`Limit`, and the deadline every search gets.

>>> Limit(byoyomi=1).go_args()
['btime', '0', 'wtime', '0', 'byoyomi', '1000']
>>> Limit(depth=8).deadline(Color.BLACK)  # no time given: a generous default, never none
300.0
>>> Limit(btime=10, wtime=0, byoyomi=2).deadline(Color.BLACK)  # 12 s of clock, and 1 s of grace
13.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta
from typing import TypeAlias

from shogiban.pieces import Color

Seconds: TypeAlias = "float | int | timedelta"
"""A duration: seconds as a number, or a :class:`datetime.timedelta`."""

#: Seconds a move may take when nothing else (a clock, a fixed time) says: the one definition.
DEFAULT_MOVETIME = 1.0
#: The most lines (MultiPV) any engine is asked for, or tracked from one.
MAX_MULTIPV = 500
#: The most lines the built-in search reports (its own bound).
BUILTIN_MAX_MULTIPV = 64
DEFAULT_TIMEOUT = 10.0
"""Seconds an engine gets to answer a command, and to end a search after it was told to stop."""
DEFAULT_ISREADY_TIMEOUT = 60.0
"""Seconds a USI engine gets to answer ``usi`` and ``isready``: engines load evaluation files and
books there (gpsusi takes 5 s for ``usi`` on a busy machine)."""
DEFAULT_SEARCH_TIMEOUT = 300.0
"""Seconds a search without a time limit (``depth``, ``nodes``, ``go mate infinite``, no limit at
all) may run before it is stopped; only an infinite analysis is ended by its caller alone."""
STOP_GRACE = 1.0
"""Seconds past a search's own time limit before it is told to stop."""


def to_seconds(value: Seconds) -> float:
    """*value* in seconds.

    :raises ValueError: if it is negative or not finite.
    """
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"invalid duration: {value!r} (must be a finite number of seconds >= 0)")
    return seconds


def to_ms(value: Seconds) -> int:
    """*value* in whole milliseconds, as USI sends times."""
    return round(to_seconds(value) * 1000)


@dataclass(frozen=True, slots=True)
class Limit:
    """When an engine should stop thinking: any combination of the fields, for the built-in engine
    and any USI engine alike.

    Clock fields follow USI: ``btime``/``wtime`` are the main time left for sente/gote, without
    the increment of the move about to be played (``binc``/``winc``), which the mover may spend
    too; ``byoyomi`` is shared by both sides.  When any clock field is set, the missing ones are
    sent as 0, since USI engines (gpsusi among them) expect ``btime`` and ``wtime`` together.

    Whatever the limit, a search has a deadline (:meth:`deadline`): its time plus a grace, or
    :data:`DEFAULT_SEARCH_TIMEOUT` for a limit without a time; callers pass ``timeout=`` to an
    engine's ``play``/``analyse`` to choose another.
    """

    time: Seconds | None = None
    """Think exactly this long (``go movetime``)."""
    depth: int | None = None
    """Search this many plies (``go depth``)."""
    nodes: int | None = None
    """Search this many nodes (``go nodes``)."""
    btime: Seconds | None = None
    """Sente's main time left."""
    wtime: Seconds | None = None
    """Gote's main time left."""
    byoyomi: Seconds | None = None
    """Byoyomi (秒読み) per move, for both sides."""
    binc: Seconds | None = None
    """Sente's Fischer increment."""
    winc: Seconds | None = None
    """Gote's Fischer increment."""
    infinite: bool = False
    """Think until told to stop (``go infinite``)."""

    def __post_init__(self) -> None:
        for name in ("time", "btime", "wtime", "byoyomi", "binc", "winc"):
            value = getattr(self, name)
            if value is not None:
                to_seconds(value)  # validates
        for name in ("depth", "nodes"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise ValueError(f"invalid limit: {name}={value!r} (must be a positive int)")

    def has_clock(self) -> bool:
        """Whether any clock field (btime, wtime, byoyomi, binc, winc) is set."""
        return any(v is not None for v in (self.btime, self.wtime, self.byoyomi, self.binc, self.winc))

    def is_bounded(self) -> bool:
        """Whether the search ends by itself (a time, a clock, a depth or a node count, and not infinite)."""
        return not self.infinite and (
            self.has_clock() or self.time is not None or self.depth is not None or self.nodes is not None
        )

    def main_time(self, turn: Color) -> float:
        """What *turn* may spend of its main time on this move: its ``btime``/``wtime`` plus the
        increment of the move (USI leaves it out of ``btime``/``wtime``), in seconds."""
        main = self.btime if turn == Color.BLACK else self.wtime
        return to_seconds(main or 0) + self.increment(turn)

    def increment(self, turn: Color) -> float:
        """*turn*'s Fischer increment, in seconds."""
        return to_seconds((self.binc if turn == Color.BLACK else self.winc) or 0)

    def byoyomi_seconds(self) -> float:
        """The byoyomi in seconds (0 without one)."""
        return to_seconds(self.byoyomi or 0)

    def go_args(self) -> list[str]:
        """The arguments of ``go`` for this limit (without ``ponder`` and ``searchmoves``)."""
        args: list[str] = []
        if self.has_clock():
            args += ["btime", str(to_ms(self.btime or 0)), "wtime", str(to_ms(self.wtime or 0))]
            if self.byoyomi is not None:
                args += ["byoyomi", str(to_ms(self.byoyomi))]
            if self.binc is not None or self.winc is not None:
                args += ["binc", str(to_ms(self.binc or 0)), "winc", str(to_ms(self.winc or 0))]
        if self.time is not None:
            args += ["movetime", str(to_ms(self.time))]
        if self.depth is not None:
            args += ["depth", str(self.depth)]
        if self.nodes is not None:
            args += ["nodes", str(self.nodes)]
        if self.infinite:
            args.append("infinite")
        return args

    def budget(self, turn: Color) -> float | None:
        """The longest the side to move may think under this limit, in seconds, or None if the
        limit is not a time (depth, nodes, infinite)."""
        candidates: list[float] = []
        if self.has_clock():
            candidates.append(self.main_time(turn) + self.byoyomi_seconds())
        if self.time is not None:
            candidates.append(to_seconds(self.time))
        return min(candidates) if candidates and not self.infinite else None

    def deadline(
        self, turn: Color, *, grace: float = STOP_GRACE, default: float = DEFAULT_SEARCH_TIMEOUT
    ) -> float | None:
        """Seconds after which a search under this limit is overdue and is stopped: the budget
        plus *grace*, else *default* for a limit without a time; None only for an infinite
        search (its caller stops it)."""
        budget = self.budget(turn)
        if budget is not None:
            return budget + grace
        return None if self.infinite else default


__all__ = [
    "BUILTIN_MAX_MULTIPV",
    "DEFAULT_ISREADY_TIMEOUT",
    "DEFAULT_MOVETIME",
    "DEFAULT_SEARCH_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "MAX_MULTIPV",
    "STOP_GRACE",
    "Limit",
    "Seconds",
    "to_ms",
    "to_seconds",
]
