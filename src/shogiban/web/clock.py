"""The web's view of the game clock: the time control a client may ask for, and what clients
are sent.  The clock itself is the game's (:class:`shogiban.game.Clock`, driven by explicit
times: seconds since the epoch here, so a stored clock means the same after a restart).

>>> control = parse_time_control({"main": 60, "byoyomi": 10})
>>> clock = Clock(control).start(Color.BLACK, now=1000.0)
>>> snapshot(clock, 1065.0)["black_byoyomi"]    # 60 s of main time, then 5 s of byoyomi
5000
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from shogiban.game.clock import Clock
from shogiban.game.timecontrol import LONGEST, TimeControl, TimeControlError
from shogiban.pieces import Color

__all__ = ["LONGEST", "Clock", "ClockView", "ControlView", "TimeControl", "TimeControlError", "parse_time_control",
           "snapshot"]


def parse_time_control(data: object) -> TimeControl:
    """The time control of a new game request: ``{"main": s, "byoyomi": s, "increment": s}``
    (None: no clock).  The web offers byoyomi or an increment, not both.

    :raises TimeControlError: on anything else.
    """
    control = TimeControl.from_dict(data)
    if control.byoyomi > 0 and control.increment > 0:
        raise TimeControlError("invalid time control: byoyomi and increment cannot be combined")
    return control


def snapshot(clock: Clock, now: float) -> dict[str, Any]:
    """The clock for clients: milliseconds left at *now* (main time with the coming move's
    increment, the byoyomi period) and who runs."""
    black = clock.time_left(Color.BLACK, now)
    white = clock.time_left(Color.WHITE, now)
    control = clock.control
    return {
        "enabled": control.enabled,
        "black": round(black[0].total_seconds() * 1000),
        "white": round(white[0].total_seconds() * 1000),
        "black_byoyomi": round(black[1].total_seconds() * 1000),
        "white_byoyomi": round(white[1].total_seconds() * 1000),
        "byoyomi": round(control.byoyomi * 1000),
        "increment": round(control.increment * 1000),
        "running": None if clock.running is None else "bw"[clock.running],
    }


@dataclass(frozen=True, slots=True)
class ControlView:
    """The time control as durations, for the record writer (:mod:`shogiban.web.records` reads
    ``control.main.total_seconds()``); goes once it reads :class:`TimeControl` itself."""

    main: timedelta
    byoyomi: timedelta
    increment: timedelta
    enabled: bool


@dataclass(frozen=True, slots=True)
class ClockView:
    """A room's clock as the record writer reads it (``room.clock.control``)."""

    clock: Clock

    @property
    def control(self) -> ControlView:
        """The time control, as durations."""
        control = self.clock.control
        return ControlView(control.main_time, control.byoyomi_time, control.increment_time, control.enabled)
