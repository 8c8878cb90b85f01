"""Times in records: seconds as KIF ``( m:ss/hh:mm:ss)``, CSA ``T`` and JKF objects.

>>> format_kif_time(16, 76)
'( 0:16/00:01:16)'
>>> format_seconds_csa(6.1234, True)
'6.123'
"""

from __future__ import annotations


def _whole(seconds: float) -> int:
    return int(seconds + 1e-9)


def format_kif_time(elapsed: float, total: float) -> str:
    """KIF time field: this move's minutes:seconds, the player's total hours:minutes:seconds."""
    e = _whole(elapsed)
    t = _whole(total)
    return f"({e // 60:2d}:{e % 60:02d}/{t // 3600:02d}:{t // 60 % 60:02d}:{t % 60:02d})"


def format_seconds_csa(seconds: float, decimals: bool) -> str:
    """CSA ``T`` value: whole seconds (V2.2 truncates) or up to milliseconds (V3.0)."""
    if not decimals:
        return str(_whole(seconds))
    text = f"{seconds:.3f}".rstrip("0").rstrip(".")
    return text or "0"


def totals(elapsed: list[float | None], first_total: list[float]) -> list[float]:
    """Cumulative per-player totals for a line of moves whose *elapsed* times are known;
    *first_total* holds each player's total before the line (index 0 = the first mover)."""
    sums = list(first_total)
    out = []
    for i, e in enumerate(elapsed):
        sums[i & 1] += e or 0
        out.append(sums[i & 1])
    return out
