"""The one time control every front end and record format uses: :class:`TimeControl`.

>>> TimeControl.of(600, byoyomi=30)
TimeControl.of(600, byoyomi=30)
>>> TimeControl.of(300, increment=5).to_dict()
{'main': 300.0, 'byoyomi': 0.0, 'increment': 5.0, 'periods': 1}
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta

from shogiban.errors import ShogibanError

#: The longest main time, byoyomi or increment :meth:`TimeControl.from_dict` accepts (a guard
#: against absurd requests; records may state longer ones).
LONGEST = timedelta(hours=24)
_FIELDS = ("main", "byoyomi", "increment", "periods")


class TimeControlError(ShogibanError):
    """A time control that cannot be used (negative, not a number, too long, damaged)."""

    code = "bad_time_control"


def _number(value: object, name: str, longest: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TimeControlError(f"invalid {name}: {type(value).__name__} (expected a number of seconds)")
    if (isinstance(value, float) and not math.isfinite(value)) or value < 0:
        raise TimeControlError(f"invalid {name}: {value!r} (must be a finite number, 0 or more)")
    # Compared before converting: float() overflows on huge ints (10**400).
    if value > longest:
        shown = f"{value:.3g}" if isinstance(value, float) or value < 10**15 else "a huge number"
        raise TimeControlError(f"invalid {name}: {shown} (at most {int(longest)} s)")
    return float(value)


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Main time, then byoyomi (秒読み) in *periods* per move, and a Fischer increment.

    Amounts are seconds, as records state them (CSA ``$TIME``, KIF 持ち時間); the clock works in
    :class:`~datetime.timedelta` (:attr:`main_time` ...).  All zero means no clock.  The
    increment follows USI and the CSA server: a move may spend its own increment.
    """

    main: float = 0.0
    """Main thinking time per player, seconds."""
    byoyomi: float = 0.0
    """Time per move once the main time is spent, seconds."""
    increment: float = 0.0
    """Time added for each move, seconds."""
    periods: int = 1
    """Byoyomi periods: a move that uses up a period goes on in the next one."""

    def __post_init__(self) -> None:
        for name in ("main", "byoyomi", "increment"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value) or value < 0:
                raise TimeControlError(f"invalid {name}: {value!r} (must be a finite number of seconds, 0 or more)")
        if isinstance(self.periods, bool) or not isinstance(self.periods, int) or self.periods < 1:
            raise TimeControlError(f"invalid byoyomi periods: {self.periods!r} (must be 1 or more)")

    @classmethod
    def of(cls, main: float = 0, *, byoyomi: float = 0, increment: float = 0, periods: int = 1) -> TimeControl:
        """The time control of *main*, *byoyomi* and *increment* seconds."""
        return cls(float(main), float(byoyomi), float(increment), periods)

    def __repr__(self) -> str:
        parts = [f"{self.main:g}"] if self.main or not (self.byoyomi or self.increment) else []
        parts += [f"{name}={getattr(self, name):g}" for name in ("byoyomi", "increment") if getattr(self, name)]
        if self.periods != 1:
            parts.append(f"periods={self.periods}")
        return f"TimeControl.of({', '.join(parts)})"

    @property
    def enabled(self) -> bool:
        """Whether there is a clock at all."""
        return self.main > 0 or self.byoyomi > 0 or self.increment > 0

    @property
    def main_time(self) -> timedelta:
        """:attr:`main` as a duration."""
        return timedelta(seconds=self.main)

    @property
    def byoyomi_time(self) -> timedelta:
        """:attr:`byoyomi` as a duration."""
        return timedelta(seconds=self.byoyomi)

    @property
    def increment_time(self) -> timedelta:
        """:attr:`increment` as a duration."""
        return timedelta(seconds=self.increment)

    def describe(self) -> str:
        """For headers and logs: ``60 s + 10 s byoyomi``, ``no clock``."""
        if not self.enabled:
            return "no clock"
        parts = [f"{self.main:g} s"]
        if self.byoyomi:
            periods = f" x{self.periods}" if self.periods != 1 else ""
            parts.append(f"{self.byoyomi:g} s byoyomi{periods}")
        if self.increment:
            parts.append(f"{self.increment:g} s increment")
        return " + ".join(parts)

    def to_dict(self) -> dict[str, float | int]:
        """Seconds, for storage and messages."""
        return {"main": self.main, "byoyomi": self.byoyomi, "increment": self.increment, "periods": self.periods}

    @classmethod
    def from_dict(cls, data: object, *, longest: timedelta = LONGEST) -> TimeControl:
        """Read ``{"main": s, "byoyomi": s, "increment": s, "periods": n}`` (missing keys are 0, or
        1 period; None is no clock).

        :raises TimeControlError: on anything else, or an amount over *longest*.
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise TimeControlError(f"invalid time control: {data!r} (expected an object)")
        unknown = set(data) - set(_FIELDS)
        if unknown:
            raise TimeControlError(f"invalid time control: unknown field {sorted(map(str, unknown))[0]!r}")
        limit = longest.total_seconds()
        periods = data.get("periods", 1)
        if isinstance(periods, bool) or not isinstance(periods, int) or not 1 <= periods <= 1000:
            raise TimeControlError(f"invalid byoyomi periods: {periods!r} (expected 1 to 1000)")
        return cls(
            _number(data.get("main", 0), "main time", limit),
            _number(data.get("byoyomi", 0), "byoyomi", limit),
            _number(data.get("increment", 0), "increment", limit),
            periods,
        )


__all__ = ["LONGEST", "TimeControl", "TimeControlError"]
