"""From the game clock to an engine's :class:`~shogiban.engines.Limit`: the one conversion.

The clock and USI count the same way (``btime``/``wtime`` exclude the increment of the coming
move, sent as ``binc``/``winc``), so the clock's fields go out as they are.  A game without a
clock, or a fixed time per move, is sent as byoyomi with no main time, never ``go movetime``:
every USI engine takes byoyomi, while some (gpsshogi) cannot take ``movetime``.

>>> from shogiban.game import Clock, TimeControl
>>> clock_limit(Clock(TimeControl.of(60, byoyomi=10))).go_args()
['btime', '60000', 'wtime', '60000', 'byoyomi', '10000']
>>> clock_limit(Clock(TimeControl.of(60, increment=5))).go_args()
['btime', '60000', 'wtime', '60000', 'binc', '5000', 'winc', '5000']
>>> clock_limit(Clock(), movetime=1.5).go_args()
['btime', '0', 'wtime', '0', 'byoyomi', '1500']

A turn already into its byoyomi leaves only the rest of it:

>>> clock_limit(Clock(TimeControl.of(0, byoyomi=5)).start(Color.BLACK, 100.0), now=102.0).go_args()
['btime', '0', 'wtime', '0', 'byoyomi', '3000']
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from shogiban.engines.limit import DEFAULT_MOVETIME, Limit
from shogiban.game.clock import Clock
from shogiban.pieces import Color  # noqa: F401 - the doctest's


def clock_limit(
    clock: Clock, *, now: float | None = None, movetime: float | None = None, depth: int | None = None,
    nodes: int | None = None,
) -> Limit:
    """The limit of the side to move's next search.

    :param now: when the search starts (the running turn's time so far is taken off); None
        takes the clock as it stood when the turn began.
    :param movetime: a fixed time per move, used when the clock has no time control (a game
        without a clock, a match at a fixed time per move).
    :param depth, nodes: further bounds, sent along.
    """
    control = clock.control
    if not control.enabled:
        seconds = DEFAULT_MOVETIME if movetime is None else movetime
        limit = Limit(btime=0, wtime=0, byoyomi=seconds) if (movetime is not None or not (depth or nodes)) else Limit()
        return replace(limit, depth=depth, nodes=nodes)
    remaining = list(clock.remaining)
    running = clock.running
    byoyomi = control.byoyomi_time
    if running is not None and now is not None:
        spent = clock.elapsed(now)
        main = remaining[running] + control.increment_time - spent
        remaining[running] = max(timedelta(0), main - control.increment_time)
        if main < timedelta(0) and control.byoyomi:
            # Into the byoyomi already (a search that waited for a worker): only what is left of it.
            byoyomi = max(timedelta(0), byoyomi + main)
    increment = control.increment_time
    return Limit(
        btime=remaining[0], wtime=remaining[1],
        byoyomi=byoyomi if control.byoyomi or not control.increment else None,
        binc=increment if control.increment else None, winc=increment if control.increment else None,
        depth=depth, nodes=nodes,
    )


__all__ = ["DEFAULT_MOVETIME", "clock_limit"]
