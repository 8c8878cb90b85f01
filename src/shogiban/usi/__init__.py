"""USI (Universal Shogi Interface), both ways.

* The client drives any USI engine: the asyncio core (:class:`UsiProtocol`, :func:`popen_usi`) and
  its blocking facade :class:`SimpleEngine`, in the style of python-chess's ``chess.engine``.
* :mod:`shogiban.usi.server` puts the built-in engine behind USI (``shogiban usi``).
* :mod:`shogiban.usi.match` plays engines against each other (``shogiban match``).

>>> from datetime import timedelta
>>> Limit(byoyomi=timedelta(seconds=1), btime=60).go_args()
['btime', '60000', 'wtime', '0', 'byoyomi', '1000']
"""

from __future__ import annotations

from shogiban.errors import EngineError, EngineTerminatedError
from shogiban.usi.model import InfoDict, Limit, MateResult, Option, Options, PlayResult, Score
from shogiban.usi.protocol import AnalysisComplete, AnalysisResult, UsiProtocol, popen_usi
from shogiban.usi.simple import SimpleAnalysisResult, SimpleEngine
from shogiban.usi.wire import EngineMoveError

__all__ = [
    "AnalysisComplete",
    "AnalysisResult",
    "EngineError",
    "EngineMoveError",
    "EngineTerminatedError",
    "InfoDict",
    "Limit",
    "MateResult",
    "Option",
    "Options",
    "PlayResult",
    "Score",
    "SimpleAnalysisResult",
    "SimpleEngine",
    "UsiProtocol",
    "popen_usi",
]
