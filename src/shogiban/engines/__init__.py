"""One engine vocabulary, python-chess style, for the built-in engine and any USI engine.

* Limits and answers: :class:`Limit` (what a search may spend, and its deadline),
  :class:`Score` / :class:`PovScore` (centipawns or mate, relative to a side; win rates by a
  replaceable :class:`WinRateModel`), :class:`InfoDict` (search information), :class:`PlayResult`,
  :class:`MateResult`, :class:`Option` / :class:`Options`.
* :class:`Engine`: the asyncio protocol every engine speaks (``play``, ``analyse``, ``analysis``,
  ``mate``, ``configure``, ``new_game``, ``quit``).  Implementations: the USI client
  (:class:`shogiban.usi.UsiProtocol`, started with :func:`shogiban.usi.popen_usi`) and
  :class:`BuiltinEngine` (the built-in engine in this process, searching in a worker thread).
* :class:`SimpleEngine`: the same, blocking, for either (``SimpleEngine.popen_usi(command)``,
  ``SimpleEngine.builtin(level=8)``).

>>> from shogiban import Board
>>> from shogiban.engines import Limit, SimpleEngine
>>> with SimpleEngine.builtin(level=8, seed=0) as engine:
...     result = engine.play(Board("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"), Limit(depth=2))
...     lines = engine.analyse(Board(), Limit(depth=2), multipv=3)
>>> result.move, result.info["score"]
(Move.from_usi('G*5b'), PovScore(Score(mate=1), Color.BLACK))
>>> len({line["pv"][0] for line in lines}), [line["multipv"] for line in lines]
(3, [1, 2, 3])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shogiban.engines.limit import DEFAULT_SEARCH_TIMEOUT, DEFAULT_TIMEOUT, Limit, Seconds
from shogiban.engines.options import ConfigValue, Option, Options
from shogiban.engines.results import InfoDict, MateResult, PlayResult
from shogiban.engines.score import DEFAULT_WIN_RATE, LogisticWinRate, PovScore, Score, WinRateModel
from shogiban.errors import EngineError, EngineMoveError, EngineTerminatedError, EngineTimeoutError

if TYPE_CHECKING:
    from shogiban.engines.analysis import AnalysisComplete, AnalysisResult, InfoQueue
    from shogiban.engines.builtin import BuiltinAnalysis, BuiltinEngine
    from shogiban.engines.interface import Engine
    from shogiban.engines.simple import SimpleAnalysisResult, SimpleEngine

#: Names loaded on first use: they bring asyncio and threads, which the built-in search (it
#: imports the vocabulary above) does without.
_LAZY = {
    "AnalysisComplete": "analysis", "AnalysisResult": "analysis", "InfoQueue": "analysis",
    "BuiltinAnalysis": "builtin", "BuiltinEngine": "builtin", "Engine": "interface",
    "SimpleAnalysisResult": "simple", "SimpleEngine": "simple",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_SEARCH_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "DEFAULT_WIN_RATE",
    "AnalysisComplete",
    "AnalysisResult",
    "BuiltinAnalysis",
    "BuiltinEngine",
    "ConfigValue",
    "Engine",
    "EngineError",
    "EngineMoveError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "InfoDict",
    "InfoQueue",
    "Limit",
    "LogisticWinRate",
    "MateResult",
    "Option",
    "Options",
    "PlayResult",
    "PovScore",
    "Score",
    "Seconds",
    "SimpleAnalysisResult",
    "SimpleEngine",
    "WinRateModel",
]
