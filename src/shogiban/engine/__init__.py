"""The built-in computer opponent: search, evaluation, strength levels and time management.

>>> from shogiban import Board
>>> from shogiban.engine import Engine, SearchLimits
>>> result = Engine(level=2, seed=0).search(Board(), SearchLimits(depth=1))
>>> result.move is not None and result.declare_win is False
True
"""

from __future__ import annotations

from shogiban.engine.engine import Engine, SearchHandle
from shogiban.engine.levels import LEVELS, MAX_LEVEL, MIN_LEVEL, LevelProfile
from shogiban.engine.limits import SearchLimits
from shogiban.engine.results import SearchInfo, SearchResult
from shogiban.engine.timeman import TimePlan, plan_time

__all__ = [
    "LEVELS",
    "MAX_LEVEL",
    "MIN_LEVEL",
    "Engine",
    "LevelProfile",
    "SearchHandle",
    "SearchInfo",
    "SearchLimits",
    "SearchResult",
    "TimePlan",
    "plan_time",
]
