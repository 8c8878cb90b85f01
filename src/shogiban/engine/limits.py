"""What a search may spend: depth, nodes, a fixed move time or the clock."""

from __future__ import annotations

from dataclasses import dataclass

from shogiban.move import Move


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """Limits of one search.  Several may be given; the search stops at the first one reached.

    With none given (and ``infinite`` false) the engine thinks for about one second, or less at
    the lower levels.

    >>> SearchLimits(time_left=60.0, byoyomi=10.0)  # doctest: +NORMALIZE_WHITESPACE
    SearchLimits(depth=None, nodes=None, movetime=None, time_left=60.0, byoyomi=10.0, increment=0.0, infinite=False,
                 searchmoves=(), started=None)
    """

    depth: int | None = None
    """Maximum nominal depth in plies (extensions and quiescence come on top)."""
    nodes: int | None = None
    """Maximum number of nodes."""
    movetime: float | None = None
    """Seconds for this move, exactly: the engine uses nearly all of it."""
    time_left: float | None = None
    """The main time the mover may spend now, seconds (USI's ``btime`` plus the increment of this
    move, which USI counts apart)."""
    byoyomi: float = 0.0
    """Seconds per move once the main time is gone."""
    increment: float = 0.0
    """Fischer increment credited after the move, seconds."""
    infinite: bool = False
    """Search until the stop event is set (analysis, ponder)."""
    searchmoves: tuple[Move, ...] = ()
    """Consider only these root moves (USI ``go searchmoves``); the illegal ones are ignored, and
    all moves are searched if none is legal."""
    started: float | None = None
    """When this move's time began, on the engine's clock (default: when the search starts); a
    server passes the moment ``go`` or ``ponderhit`` arrived, so its own delays count."""

    def uses_clock(self) -> bool:
        """Whether the budget comes from a game clock (main time, byoyomi or increment)."""
        return self.time_left is not None or self.byoyomi > 0 or self.increment > 0
