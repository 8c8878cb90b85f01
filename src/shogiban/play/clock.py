"""Game clocks: main time, then byoyomi (秒読み) for every move once the main time is spent.

The clock is pure bookkeeping on a monotonic time source that tests can replace.

>>> now = [0.0]
>>> clock = GameClock(ClockSettings(main=10.0, byoyomi=5.0), now=lambda: now[0])
>>> clock.start(0)
>>> now[0] = 12.0            # 10 s of main time, then 2 s of byoyomi
>>> clock.stop()
True
>>> clock.main_left(0), clock.in_byoyomi(0)
(0.0, True)
>>> clock.start(0); now[0] = 18.0   # 6 s: more than the 5 s byoyomi
>>> clock.stop()
False
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from shogiban.errors import ShogibanError


class InvalidDurationError(ShogibanError):
    """A duration such as ``10m``, ``30s``, ``1:30`` or ``45`` cannot be read."""

    code = "invalid_duration"


_UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0, "": 1.0}


def parse_duration(text: str) -> float:
    """Seconds in *text*: ``45`` or ``45s`` (seconds), ``10m``, ``1h``, ``1m30s``, ``1:30``, ``0.5``.

    >>> parse_duration("1m30s"), parse_duration("1:30"), parse_duration("0.25")
    (90.0, 90.0, 0.25)

    :raises InvalidDurationError: if *text* is not a duration or is negative.
    """
    cleaned = text.strip().lower().replace(" ", "")
    if re.fullmatch(r"\d+(:\d{1,2}){1,2}", cleaned):
        total = 0.0
        for part in cleaned.split(":"):
            total = total * 60 + int(part)
        return total
    parts = re.findall(r"(\d+(?:\.\d*)?|\.\d+)([hms]?)", cleaned)
    if not cleaned or "".join(a + b for a, b in parts) != cleaned:
        raise InvalidDurationError(f"invalid duration: {text!r} (examples: 45, 30s, 10m, 1h, 1:30)")
    return sum(float(number) * _UNITS[unit] for number, unit in parts)


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """A time control: main time, then byoyomi per move (Fischer increment optional)."""

    main: float = 0.0
    """Main time of each player, seconds."""
    byoyomi: float = 0.0
    """Seconds for each move once the main time is spent (0: the main time is all there is)."""
    increment: float = 0.0
    """Seconds added to the main time after each move (Fischer)."""

    @property
    def unlimited(self) -> bool:
        """Whether there is no time limit at all."""
        return self.main <= 0 and self.byoyomi <= 0 and self.increment <= 0


class GameClock:
    """Both players' clocks.  One side's clock runs at a time: :meth:`start` it at the beginning
    of that side's turn, :meth:`stop` it when the move is made."""

    def __init__(self, settings: ClockSettings, *, now: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self._now = now
        self._main = [settings.main, settings.main]
        self._running: int | None = None
        self._started = 0.0
        self._flagged: int | None = None

    @property
    def running(self) -> int | None:
        """The side whose clock runs (0 sente, 1 gote), or None."""
        return self._running

    @property
    def flagged(self) -> int | None:
        """The side that ran out of time, if one did."""
        return self._flagged

    def start(self, color: int) -> None:
        """Start *color*'s clock for a new turn."""
        self._running = int(color)
        self._started = self._now()

    def elapsed(self) -> float:
        """Seconds used in the current turn so far."""
        return self._now() - self._started if self._running is not None else 0.0

    def main_left(self, color: int) -> float:
        """*color*'s main time left, seconds (the running turn counted)."""
        main = self._main[color]
        if self._running == color:
            main -= self.elapsed()
        return max(0.0, main)

    def in_byoyomi(self, color: int) -> bool:
        """Whether *color*'s main time is spent (and byoyomi is in force)."""
        return self.settings.byoyomi > 0 and self.main_left(color) <= 0

    def time_for_move(self, color: int) -> float | None:
        """Seconds *color* has left for the move in progress (or the next one), None if unlimited."""
        if self.settings.unlimited:
            return None
        used = self.elapsed() if self._running == color else 0.0
        return self._main[color] + self.settings.byoyomi - used

    def stop(self) -> bool:
        """Stop the running clock and charge the turn.  Returns False, and records the flag, if
        the side ran out of time."""
        color = self._running
        if color is None:
            return True
        used = self.elapsed()
        self._running = None
        if self.settings.unlimited:
            return True
        budget = self._main[color] + self.settings.byoyomi
        if used > budget:
            self._main[color] = 0.0
            self._flagged = color
            return False
        self._main[color] = max(0.0, self._main[color] - used) + self.settings.increment
        return True

    def flag(self, color: int) -> None:
        """Record that *color* ran out of time (seen by the caller while waiting)."""
        self._running = None
        self._main[color] = 0.0
        self._flagged = int(color)


def format_seconds(seconds: float) -> str:
    """``1:05:03``, ``9:58``, or ``0:07.4`` under ten seconds.

    >>> format_seconds(3903), format_seconds(598.2), format_seconds(7.44)
    ('1:05:03', '9:58', '0:07.4')
    """
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
