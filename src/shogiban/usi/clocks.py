"""A thin standalone form of the clock-to-``go`` conversion, kept for scripts that hold bare
seconds rather than a game clock.  No front end uses it: the web server, the terminal game and
the match runner all take their limits from :func:`shogiban.game.clock_limit`, which gives the
same ``go`` for the same clock (tests/usi/test_clocks.py checks that they agree).

>>> engine_limit(ClockState(black_main=60.0, white_main=45.0, byoyomi=10.0)).go_args()
['btime', '60000', 'wtime', '45000', 'byoyomi', '10000']
>>> engine_limit(ClockState(black_main=60.0, white_main=60.0, increment=5.0)).go_args()
['btime', '55000', 'wtime', '55000', 'binc', '5000', 'winc', '5000']
>>> engine_limit(movetime=1.5).go_args()          # a hint, or a game without a clock
['btime', '0', 'wtime', '0', 'byoyomi', '1500']

A fixed time per move is sent as byoyomi with no main time, never as ``go movetime``: every USI
engine takes byoyomi, while some (gpsshogi) crash on ``movetime``.
"""

from __future__ import annotations

from dataclasses import dataclass

from shogiban.engines.limit import Limit
from shogiban.pieces import Color

#: Seconds per move when there is neither a clock nor a fixed time.
DEFAULT_MOVETIME = 1.0


@dataclass(frozen=True, slots=True)
class ClockState:
    """What an engine needs to know of the clocks when it is asked to move.

    ``black_main`` and ``white_main`` are the main time each side may spend on its coming move,
    byoyomi aside: what a clock that adds the increment *after* the move (the web and terminal
    clocks) shows as left.  A clock that credits the increment before the move, as USI and CSA
    count (``btime`` excludes it), passes its time left plus the increment.
    """

    black_main: float
    """Sente's main time left, seconds."""
    white_main: float
    """Gote's main time left, seconds."""
    byoyomi: float = 0.0
    """Byoyomi per move, seconds."""
    increment: float = 0.0
    """Fischer increment per move, seconds."""

    def main(self, color: Color) -> float:
        """*color*'s main time left."""
        return self.black_main if color == Color.BLACK else self.white_main


def engine_limit(clock: ClockState | None = None, *, movetime: float | None = None) -> Limit:
    """The :class:`Limit` for an external engine's next move.

    :param clock: the game's clock; sent in USI's convention: ``btime``/``wtime`` exclude the
        increment of the side's coming move (``binc``/``winc``), so the engine may spend exactly
        the main time the clock shows; without an increment, byoyomi is always sent (``0`` in
        sudden death), as GUIs do.
    :param movetime: a fixed time for this move instead (a hint, a game without a clock, a
        match at a fixed time per move): sent as ``btime 0 wtime 0 byoyomi <movetime>``.
    With neither, the engine gets :data:`DEFAULT_MOVETIME` the same way.
    """
    if movetime is not None or clock is None:
        return Limit(btime=0, wtime=0, byoyomi=DEFAULT_MOVETIME if movetime is None else movetime)
    black, white = max(0.0, clock.black_main), max(0.0, clock.white_main)
    increment = max(0.0, clock.increment)
    if increment <= 0:
        return Limit(btime=black, wtime=white, byoyomi=max(0.0, clock.byoyomi))
    # The increment a move brings cannot exceed what the clock shows for it (a nearly empty clock).
    black_inc, white_inc = min(increment, black), min(increment, white)
    return Limit(
        btime=black - black_inc, wtime=white - white_inc, byoyomi=clock.byoyomi or None,
        binc=black_inc, winc=white_inc,
    )


__all__ = ["DEFAULT_MOVETIME", "ClockState", "engine_limit"]
