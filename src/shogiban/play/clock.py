"""Durations at the terminal: reading ``10m`` / ``1:30`` and showing ``9:58``.

The clock itself is the game's (:class:`shogiban.game.Clock`), with its one
:class:`~shogiban.game.TimeControl`.
"""

from __future__ import annotations

import re

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
