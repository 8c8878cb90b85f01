"""Game clocks: main time plus byoyomi (秒読み), or a Fischer increment, or none.

The clock is a plain object driven by explicit times (seconds since the epoch), so the server
can store it, restore it after a restart and test it without waiting.  The room schedules the
loss on time with :meth:`Clock.deadline`.

>>> control = TimeControl(main=timedelta(minutes=1), byoyomi=timedelta(seconds=10))
>>> clock = Clock(control)
>>> clock.start(Color.BLACK, now=1000.0)
>>> clock.press(now=1065.0)  # 60 s of main time, then 5 s of byoyomi
datetime.timedelta(seconds=65)
>>> clock.remaining[Color.BLACK], clock.running
(datetime.timedelta(0), <Color.WHITE: 1>)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from shogiban.pieces import Color

#: The longest main time, byoyomi or increment accepted (a guard against absurd input).
LONGEST = timedelta(hours=24)
_ZERO = timedelta(0)


class TimeControlError(ValueError):
    """A time control that cannot be used (negative, too long, or byoyomi with an increment)."""

    code = "bad_time_control"


def _seconds(value: object, name: str) -> timedelta:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TimeControlError(f"invalid {name}: {type(value).__name__} (expected a number of seconds)")
    if (isinstance(value, float) and not math.isfinite(value)) or value < 0:
        raise TimeControlError(f"invalid {name}: {value!r} (must be a finite number, 0 or more)")
    # Compared before converting: timedelta() and float() overflow on huge numbers (1e20 s, 10**400).
    if value > LONGEST.total_seconds():
        shown = f"{value:.3g}" if isinstance(value, float) or value < 10**15 else "a huge number"
        raise TimeControlError(f"invalid {name}: {shown} (at most {int(LONGEST.total_seconds())} s)")
    return timedelta(seconds=float(value))


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How much time each side has.

    ``main`` is the initial time; with ``byoyomi`` every move after it must be made within that
    many seconds (JSA style: it starts afresh each move); with ``increment`` each move adds that
    many seconds (Fischer).  All zero means no clock.
    """

    main: timedelta = _ZERO
    """Initial time of each side."""
    byoyomi: timedelta = _ZERO
    """Time per move once the main time is used up."""
    increment: timedelta = _ZERO
    """Time added after each move."""

    def __post_init__(self) -> None:
        if self.byoyomi > _ZERO and self.increment > _ZERO:
            raise TimeControlError("invalid time control: byoyomi and increment cannot be combined")
        for name in ("main", "byoyomi", "increment"):
            span = getattr(self, name)
            if span < _ZERO or span > LONGEST:
                raise TimeControlError(f"invalid {name}: {span!r}")

    @property
    def enabled(self) -> bool:
        """Whether there is a clock at all."""
        return self.main > _ZERO or self.byoyomi > _ZERO or self.increment > _ZERO

    def to_json(self) -> dict[str, float]:
        """Seconds, for storage and messages."""
        return {
            "main": self.main.total_seconds(),
            "byoyomi": self.byoyomi.total_seconds(),
            "increment": self.increment.total_seconds(),
        }

    @classmethod
    def from_json(cls, data: object) -> TimeControl:
        """Parse ``{"main": s, "byoyomi": s, "increment": s}`` (missing keys are 0; None is no clock).

        :raises TimeControlError: on anything else.
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise TimeControlError(f"invalid time control: {data!r} (expected an object)")
        unknown = set(data) - {"main", "byoyomi", "increment"}
        if unknown:
            raise TimeControlError(f"invalid time control: unknown field {sorted(unknown)[0]!r}")
        return cls(
            main=_seconds(data.get("main", 0), "main time"),
            byoyomi=_seconds(data.get("byoyomi", 0), "byoyomi"),
            increment=_seconds(data.get("increment", 0), "increment"),
        )


@dataclass
class Clock:
    """Both sides' remaining main time and whose clock runs since when.

    Times are seconds since the epoch (``time.time()``), so a stored clock means the same after a
    restart.  Without a time control the clock still measures each move (for the record) and
    never runs out.
    """

    control: TimeControl = field(default_factory=TimeControl)
    """The time control."""
    remaining: list[timedelta] = field(default_factory=list)
    """Main time left for sente and gote (index by :class:`Color`)."""
    running: Color | None = None
    """Whose clock runs, or None when stopped."""
    since: float | None = None
    """When the running side's turn began."""

    def __post_init__(self) -> None:
        if not self.remaining:
            self.remaining = [self.control.main, self.control.main]

    def start(self, color: Color, now: float) -> None:
        """Start *color*'s clock (its turn begins at *now*)."""
        self.running = Color(color)
        self.since = now

    def elapsed(self, now: float) -> timedelta:
        """Time spent on the current turn."""
        if self.running is None or self.since is None:
            return _ZERO
        return timedelta(seconds=max(0.0, now - self.since))

    def deadline(self) -> float | None:
        """When the running side loses on time, or None (no clock, or stopped)."""
        if self.running is None or self.since is None or not self.control.enabled:
            return None
        left = self.remaining[self.running] + self.control.byoyomi
        return self.since + left.total_seconds()

    def is_flagged(self, now: float) -> bool:
        """Whether the running side has run out of time at *now*."""
        deadline = self.deadline()
        return deadline is not None and now > deadline

    def press(self, now: float) -> timedelta:
        """End the running side's turn at *now*: charge the time, add the increment, start the other
        side.  Returns the time spent.  Check :meth:`is_flagged` first: a flagged side's time is
        charged down to zero here.

        :raises RuntimeError: if no clock runs.
        """
        if self.running is None:
            raise RuntimeError("the clock is not running")
        color = self.running
        spent = self.elapsed(now)
        self._charge(color, spent)
        if self.control.increment:
            self.remaining[color] += self.control.increment
        self.start(Color(color ^ 1), now)
        return spent

    def _charge(self, color: Color, spent: timedelta) -> None:
        if not self.control.enabled:
            return
        # Byoyomi is not a bank: what the move took beyond the main time is simply gone.
        self.remaining[color] = max(_ZERO, self.remaining[color] - spent)

    def stop(self, now: float) -> None:
        """Stop the clock at *now*, charging the running side's time so far (game over)."""
        if self.running is not None:
            self._charge(self.running, self.elapsed(now))
        self.running = None
        self.since = None

    def pause(self, until: float) -> None:
        """Charge the running side up to *until* and restart its turn from there.  Used after a
        restart: the time before *until* counts, the downtime after it does not."""
        if self.running is None or self.since is None:
            return
        if until > self.since:
            self._charge(self.running, timedelta(seconds=until - self.since))
            self.since = until

    def resume(self, now: float) -> None:
        """Let the running side's turn continue from *now* (after :meth:`pause`)."""
        if self.running is not None:
            self.since = now

    def time_left(self, color: Color, now: float) -> tuple[timedelta, timedelta]:
        """``(main, byoyomi)`` left for *color* at *now*; byoyomi is the full period unless *color*
        is running in it."""
        main = self.remaining[color]
        byoyomi = self.control.byoyomi
        if color == self.running and self.control.enabled:
            spent = self.elapsed(now)
            if spent <= main:
                main -= spent
            else:
                byoyomi = max(_ZERO, byoyomi - (spent - main))
                main = _ZERO
        return main, byoyomi

    def snapshot(self, now: float) -> dict[str, Any]:
        """The clock for clients: milliseconds left at *now* and who runs."""
        black = self.time_left(Color.BLACK, now)
        white = self.time_left(Color.WHITE, now)
        return {
            "enabled": self.control.enabled,
            "black": round(black[0].total_seconds() * 1000),
            "white": round(white[0].total_seconds() * 1000),
            "black_byoyomi": round(black[1].total_seconds() * 1000),
            "white_byoyomi": round(white[1].total_seconds() * 1000),
            "byoyomi": round(self.control.byoyomi.total_seconds() * 1000),
            "increment": round(self.control.increment.total_seconds() * 1000),
            "running": None if self.running is None else "bw"[self.running],
        }

    def to_json(self) -> dict[str, Any]:
        """Everything needed to restore the clock."""
        return {
            "control": self.control.to_json(),
            "remaining": [r.total_seconds() for r in self.remaining],
            "running": None if self.running is None else int(self.running),
            "since": self.since,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        """Restore a clock written by :meth:`to_json`.

        :raises TimeControlError: if the stored data is damaged.
        """
        try:
            control = TimeControl.from_json(data.get("control"))
            remaining = [timedelta(seconds=float(r)) for r in data["remaining"]]
            running = data.get("running")
            since = data.get("since")
            if len(remaining) != 2 or running not in (None, 0, 1):
                raise TimeControlError(f"damaged clock: {data!r}")
            return cls(
                control,
                remaining,
                None if running is None else Color(running),
                None if since is None else float(since),
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, TimeControlError):
                raise
            raise TimeControlError(f"damaged clock: {data!r} ({error})") from error
