"""USI (Universal Shogi Interface), both ways.

* The client drives any USI engine: the asyncio core (:class:`UsiProtocol`, :func:`popen_usi`) and
  its blocking facade :class:`SimpleEngine`, in the style of python-chess's ``chess.engine``.  It
  speaks the engines vocabulary (:mod:`shogiban.engines`: :class:`Limit`, :class:`PovScore`,
  :class:`InfoDict`, :class:`PlayResult` ...), re-exported here, as the built-in engine does.
* :mod:`shogiban.usi.server` puts the built-in engine behind USI (``shogiban usi``).
* :mod:`shogiban.usi.match` plays engines against each other (``shogiban match``).

>>> from datetime import timedelta
>>> Limit(byoyomi=timedelta(seconds=1), btime=60).go_args()
['btime', '60000', 'wtime', '0', 'byoyomi', '1000']
"""

from __future__ import annotations

from shogiban.engines import (
    AnalysisComplete,
    AnalysisResult,
    InfoDict,
    Limit,
    MateResult,
    Option,
    Options,
    PlayResult,
    PovScore,
    Score,
    SimpleAnalysisResult,
    SimpleEngine,
)
from shogiban.errors import EngineError, EngineMoveError, EngineTerminatedError, EngineTimeoutError
from shogiban.usi.protocol import UsiAnalysis, UsiProtocol, popen_usi

__all__ = [
    "AnalysisComplete",
    "AnalysisResult",
    "EngineError",
    "EngineMoveError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "InfoDict",
    "Limit",
    "MateResult",
    "Option",
    "Options",
    "PlayResult",
    "PovScore",
    "Score",
    "SimpleAnalysisResult",
    "SimpleEngine",
    "UsiAnalysis",
    "UsiProtocol",
    "popen_usi",
]
