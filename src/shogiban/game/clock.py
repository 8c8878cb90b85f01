"""The one game clock: pure, serialisable, driven by an explicit ``now``.

``now`` is seconds on whatever time line the caller keeps (``time.time()`` for a server that
must survive restarts, ``time.monotonic()`` for a terminal game, a counter in tests); durations
are :class:`~datetime.timedelta`.  Every method returns a new :class:`Clock`.

The time-out rule is the CSA server's for every front end: with ``t`` the time a move counts,
the mover loses on time iff ``main − t + increment + byoyomi × periods ≤ 0``; :attr:`Timing.CSA`
counts ``t`` in whole seconds (rounded down) as shogi-server does, :attr:`Timing.EXACT` as
measured.  The increment is credited before the move (a move may spend it), as USI and CSA count.

>>> clock = Clock(TimeControl.of(60, byoyomi=10)).start(Color.BLACK, now=1000.0)
>>> clock, spent = clock.press(now=1065.0)   # 60 s of main time, then 5 s of byoyomi
>>> spent, clock.remaining[Color.BLACK], clock.running
(datetime.timedelta(seconds=65), datetime.timedelta(0), <Color.WHITE: 1>)
>>> clock.deadline()                          # gote: 60 s main + 10 s byoyomi
1135.0
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

from shogiban.game.timecontrol import TimeControl, TimeControlError
from shogiban.pieces import Color

_ZERO = timedelta(0)
_SECOND = timedelta(seconds=1)


class Timing(enum.Enum):
    """How a move's time is counted."""

    EXACT = "exact"
    """As measured."""
    CSA = "csa"
    """In whole seconds, rounded down (shogi-server's ``Time_Roundup:NO``)."""


def _ceil_seconds(span: timedelta) -> timedelta:
    return timedelta(seconds=math.ceil(span.total_seconds()))


@dataclass(frozen=True, slots=True)
class Clock:
    """Both sides' main time and byoyomi periods left, and whose turn runs since when.

    Without a time control the clock still measures each move (for the record) and never runs
    out.  A paused clock (:meth:`pause`) keeps the running side but charges nobody until
    :meth:`resume`: downtime of a server, a suspended terminal.
    """

    control: TimeControl = field(default_factory=TimeControl)
    """The time control."""
    remaining: tuple[timedelta, timedelta] = (_ZERO, _ZERO)
    """Main time left for sente and gote (index by :class:`Color`), without the increment of
    their coming move; filled from the control when left at zero on a fresh clock."""
    periods: tuple[int, int] = (-1, -1)
    """Byoyomi periods left for each side; filled from the control on a fresh clock."""
    running: Color | None = None
    """Whose turn runs, or None when stopped."""
    since: float | None = None
    """When the running turn (re)started; None while paused."""
    used: timedelta = _ZERO
    """Time of the running turn spent before a pause."""
    timing: Timing = Timing.EXACT
    """How a move's time is counted."""
    tolerance: timedelta = _ZERO
    """Time a move may exceed its allowance before it loses (process and network latency)."""

    def __post_init__(self) -> None:
        if self.periods == (-1, -1):
            object.__setattr__(self, "periods", (self.control.periods, self.control.periods))
            if self.remaining == (_ZERO, _ZERO):
                main = self.control.main_time
                object.__setattr__(self, "remaining", (main, main))

    # -- reading -------------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether a turn runs but is not being charged."""
        return self.running is not None and self.since is None

    def elapsed(self, now: float) -> timedelta:
        """Time spent on the running turn at *now*, as measured."""
        if self.running is None:
            return _ZERO
        if self.since is None:
            return self.used
        return self.used + timedelta(seconds=max(0.0, now - self.since))

    def counted(self, spent: timedelta) -> timedelta:
        """What *spent* counts for under :attr:`timing`."""
        if self.timing is Timing.CSA:
            return timedelta(seconds=math.floor(spent.total_seconds()))
        return spent

    def allowance(self, color: Color) -> timedelta | None:
        """The most *color*'s coming (or running) move may count, or None without a clock."""
        if not self.control.enabled:
            return None
        return self.remaining[color] + self.control.increment_time + self.control.byoyomi_time * self.periods[color]

    def _threshold(self, color: Color) -> timedelta | None:
        allowance = self.allowance(color)
        if allowance is None:
            return None
        limit = allowance + self.tolerance
        # floor(t) >= limit exactly when t >= ceil(limit).
        return _ceil_seconds(limit) if self.timing is Timing.CSA else limit

    def is_flagged(self, now: float) -> bool:
        """Whether the running side has run out of time at *now*."""
        if self.running is None:
            return False
        allowance = self.allowance(self.running)
        return allowance is not None and self.counted(self.elapsed(now)) >= allowance + self.tolerance

    def deadline(self) -> float | None:
        """The moment the running side runs out of time, or None (no clock, stopped, paused)."""
        if self.running is None or self.since is None:
            return None
        threshold = self._threshold(self.running)
        if threshold is None:
            return None
        return self.since + (threshold - self.used).total_seconds()

    def time_left(self, color: Color, now: float) -> tuple[timedelta, timedelta, int]:
        """``(main, byoyomi, periods)`` *color* has at *now* for its running or coming move: main
        time with the move's increment, what is left of the current byoyomi period, and the
        periods left counting the current one."""
        main = self.remaining[color] + self.control.increment_time
        byoyomi = self.control.byoyomi_time
        periods = self.periods[color] if byoyomi > _ZERO else 0
        if color != self.running or not self.control.enabled:
            return main, byoyomi, periods
        spent = self.elapsed(now)
        if spent <= main:
            return main - spent, byoyomi, periods
        over = spent - main
        if byoyomi <= _ZERO:
            return _ZERO, _ZERO, 0
        lost = over // byoyomi
        if lost >= periods:
            return _ZERO, _ZERO, 0
        return _ZERO, byoyomi - (over - byoyomi * lost), periods - lost

    # -- changing ------------------------------------------------------------------------------

    def start(self, color: Color, now: float) -> Clock:
        """*color*'s turn begins at *now*."""
        return replace(self, running=Color(color), since=now, used=_ZERO)

    def _charged(self, color: Color, spent: timedelta, *, increment: bool) -> Clock:
        if not self.control.enabled:
            return self
        t = self.counted(spent)
        main = self.remaining[color] + (self.control.increment_time if increment else _ZERO)
        periods = self.periods[color]
        byoyomi = self.control.byoyomi_time
        if t <= main:
            main -= t
        else:
            # Byoyomi is not a bank: what the move took beyond the main time is gone, and each
            # period it used up entirely is lost.
            over = t - main
            main = _ZERO
            if byoyomi > _ZERO:
                periods = max(0, periods - over // byoyomi)
        remaining = list(self.remaining)
        remaining[color] = main
        counts = list(self.periods)
        counts[color] = periods
        return replace(self, remaining=(remaining[0], remaining[1]), periods=(counts[0], counts[1]))

    def press(self, now: float) -> tuple[Clock, timedelta]:
        """End the running turn at *now*: charge it (the increment credited), start the other side.
        Returns the new clock and the time the move took.  Check :meth:`is_flagged` first.

        :raises RuntimeError: if no turn runs.
        """
        if self.running is None:
            raise RuntimeError("the clock is not running")
        color = self.running
        spent = self.elapsed(now)
        clock = self._charged(color, spent, increment=True)
        return clock.start(color.other, now), spent

    def stop(self, now: float) -> Clock:
        """Stop at *now* (the game is over), charging the running side's time so far."""
        if self.running is None:
            return self
        clock = self._charged(self.running, self.elapsed(now), increment=False)
        return replace(clock, running=None, since=None, used=_ZERO)

    def flag(self) -> Clock:
        """Stop with the running side out of time (its main time and periods at zero)."""
        if self.running is None:
            return self
        remaining = list(self.remaining)
        remaining[self.running] = _ZERO
        periods = list(self.periods)
        periods[self.running] = 0
        return replace(self, remaining=(remaining[0], remaining[1]), periods=(periods[0], periods[1]),
                       running=None, since=None, used=_ZERO)

    def pause(self, at: float) -> Clock:
        """Stop charging at *at* (the running turn keeps what it spent until then)."""
        if self.running is None or self.since is None:
            return self
        return replace(self, used=self.elapsed(max(at, self.since)), since=None)

    def resume(self, now: float) -> Clock:
        """Charge the running turn again from *now* (after :meth:`pause`)."""
        if self.running is None or self.since is not None:
            return self
        return replace(self, since=now)

    def restart_turn(self, now: float) -> Clock:
        """The side to move starts its turn afresh at *now* (after a take-back), clocks as they are."""
        return self if self.running is None else self.start(self.running, now)

    # -- storage -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to restore the clock (seconds)."""
        return {
            "control": self.control.to_dict(),
            "remaining": [r.total_seconds() for r in self.remaining],
            "periods": list(self.periods),
            "running": None if self.running is None else int(self.running),
            "since": self.since,
            "used": self.used.total_seconds(),
            "timing": self.timing.value,
            "tolerance": self.tolerance.total_seconds(),
        }

    @classmethod
    def from_dict(cls, data: object) -> Clock:
        """Restore a clock written by :meth:`to_dict`.

        :raises TimeControlError: if the data is damaged.
        """
        if not isinstance(data, dict):
            raise TimeControlError(f"damaged clock: {data!r}")
        try:
            control = TimeControl.from_dict(data.get("control"), longest=timedelta(days=10**6))
            remaining = [timedelta(seconds=_finite(r)) for r in data["remaining"]]
            periods = [int(p) for p in data.get("periods", [control.periods, control.periods])]
            running, since = data.get("running"), data.get("since")
            if len(remaining) != 2 or len(periods) != 2 or running not in (None, 0, 1) or min(periods) < 0:
                raise TimeControlError(f"damaged clock: {data!r}")
            if any(r < _ZERO for r in remaining):
                raise TimeControlError(f"damaged clock: {data!r} (negative time)")
            return cls(
                control, (remaining[0], remaining[1]), (periods[0], periods[1]),
                None if running is None else Color(running),
                None if since is None else _finite(since),
                timedelta(seconds=_finite(data.get("used", 0))),
                Timing(data.get("timing", Timing.EXACT.value)),
                timedelta(seconds=_finite(data.get("tolerance", 0))),
            )
        except TimeControlError:
            raise
        except (KeyError, TypeError, ValueError, OverflowError) as error:
            raise TimeControlError(f"damaged clock: {data!r} ({error})") from error


def _finite(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise TimeControlError(f"damaged clock: {value!r} is not a number")
    return float(value)


__all__ = ["Clock", "Timing"]
