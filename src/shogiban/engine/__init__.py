"""The built-in computer opponent: search, evaluation, strength levels and time management.

It speaks the engines vocabulary (:mod:`shogiban.engines`): a :class:`~shogiban.engines.Limit`
in, a :class:`~shogiban.engines.PlayResult` out.  To use it like any other engine (``play``,
``analyse``, ``analysis``, ``mate``), wrap it: :class:`shogiban.engines.BuiltinEngine` (asyncio) or
``SimpleEngine.builtin()``.

>>> from shogiban import Board
>>> from shogiban.engines import Limit
>>> result = BuiltinSearch(level=2, seed=0).search(Board(), Limit(depth=1))
>>> result.move is not None and not result.declared_win
True
"""

from __future__ import annotations

from shogiban.engine.engine import MAX_MULTIPV, BuiltinSearch, InfoCallback, SearchHandle
from shogiban.engine.levels import LEVELS, MAX_LEVEL, MIN_LEVEL, LevelProfile
from shogiban.engine.timeman import TimePlan, plan_time

__all__ = [
    "LEVELS",
    "MAX_LEVEL",
    "MAX_MULTIPV",
    "MIN_LEVEL",
    "BuiltinSearch",
    "InfoCallback",
    "LevelProfile",
    "SearchHandle",
    "TimePlan",
    "plan_time",
]
