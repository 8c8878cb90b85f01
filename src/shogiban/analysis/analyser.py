"""Running an engine over positions and games: :class:`Analyser`.

Each position is searched once to the per-position :class:`~shogiban.engines.Limit` with
MultiPV; a position already in the cache (same engine, limit and MultiPV) is not searched
again.  A checkmated position is not searched at all (it is lost for the side to move).

With ``independent=True`` the engine forgets everything (``new_game``) before each search, so
a position's result does not depend on what was searched before it: the cache then holds what a
search would give, and a folder analysed by several processes gives the same as by one.

Progress: *progress* is called after each position with a :class:`Progress`; it may return
False to stop, as may *cancel* (a :class:`threading.Event`) when set.  Both are looked at
between two searches; what was analysed until then is kept (``cancelled`` is set).

>>> from shogiban.engines import SimpleEngine
>>> from shogiban.kifu import read_game
>>> with SimpleEngine.builtin(level=8, seed=0) as engine:
...     analysis = Analyser(engine, Limit(depth=2)).game(read_game("+7776FU\\n-3334FU\\n+8833UM\\n-2233KA\\n"))
>>> [m.label.value if m.label else None for m in analysis.mainline_moves()]
[None, None, 'blunder', None]
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from shogiban.analysis.cache import AnalysisCache, cache_key, limit_text
from shogiban.analysis.classify import DEFAULT_THRESHOLDS, Thresholds
from shogiban.analysis.game import GameAnalysis, iter_boards, nodes_to_analyse
from shogiban.analysis.positions import PositionAnalysis, lines_from_infos, position_key, terminal_analysis
from shogiban.board import Board
from shogiban.engines.limit import Limit
from shogiban.engines.results import InfoDict
from shogiban.engines.score import DEFAULT_WIN_RATE, WinRateModel
from shogiban.errors import ShogibanError
from shogiban.kifu.game import Game, GameNode


class AnalysingEngine(Protocol):
    """What an analysis needs of an engine (a :class:`~shogiban.engines.SimpleEngine` has it)."""

    @property
    def name(self) -> str: ...  # pragma: no cover - protocol

    def analyse(self, board: Board, limit: Limit, *, multipv: int) -> list[InfoDict]: ...  # pragma: no cover

    def new_game(self) -> None: ...  # pragma: no cover - protocol


class AnalysisOptionError(ShogibanError):
    """Options of an analysis that cannot be used (MultiPV below 1, an unbounded limit)."""

    code = "bad_option"


@dataclass(frozen=True, slots=True)
class Progress:
    """Where an analysis is: *done* positions of *total*, the last one searched or cached."""

    done: int
    total: int
    node: GameNode | None
    cached: bool


ProgressCallback = Callable[[Progress], "bool | None"]


class Analyser:
    """Analyses positions and games with *engine* to *limit* per position.

    :param engine_id: the name positions are cached under (default: the engine's name).
    :param model: the win-rate conversion (default: logistic, 600 cp; see
        :mod:`shogiban.engines.score`).
    :raises AnalysisOptionError: for MultiPV below 1 or a limit without an end.
    """

    def __init__(
        self,
        engine: AnalysingEngine,
        limit: Limit,
        *,
        multipv: int = 1,
        cache: AnalysisCache | None = None,
        engine_id: str | None = None,
        model: WinRateModel = DEFAULT_WIN_RATE,
        thresholds: Thresholds = DEFAULT_THRESHOLDS,
        independent: bool = False,
    ) -> None:
        if multipv < 1:
            raise AnalysisOptionError(f"invalid multipv: {multipv} (must be at least 1)")
        if not limit.is_bounded():
            raise AnalysisOptionError(f"an analysis needs a limit that ends: {limit_text(limit)}")
        self.engine = engine
        self.limit = limit
        self.multipv = multipv
        self.cache = cache if cache is not None else AnalysisCache()
        self.engine_id = engine_id or engine.name
        self.model = model
        self.thresholds = thresholds
        self.independent = independent
        self.searches = 0
        """Positions searched by the engine (cache hits and mates on the board not counted)."""

    def position(self, board: Board) -> PositionAnalysis:
        """The analysis of *board* (from the cache, or searched)."""
        return self._position(board)[0]

    def _position(self, board: Board) -> tuple[PositionAnalysis, bool]:
        done = terminal_analysis(board, self.engine_id)
        if done is not None:
            return done, True
        key = position_key(board)
        ckey = cache_key(self.engine_id, self.limit, self.multipv, key)
        lines = self.cache.get(ckey)
        cached = lines is not None
        if lines is None:
            if self.independent:
                self.engine.new_game()
            infos = self.engine.analyse(board, self.limit, multipv=self.multipv)
            self.searches += 1
            lines = lines_from_infos(board, infos)
            self.cache.put(ckey, lines)
        return PositionAnalysis(key, board.turn, lines, self.engine_id), cached

    def game(
        self,
        game: Game,
        *,
        lines: str = "main",
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        max_positions: int | None = None,
    ) -> GameAnalysis:
        """The analysis of *game*'s main line (*lines* ``"main"``) or whole tree (``"all"``).

        :raises AnalysisLimitError: if it has more than *max_positions* positions to analyse.
        """
        nodes = nodes_to_analyse(game, lines, max_positions=max_positions)
        positions: dict[GameNode, PositionAnalysis] = {}
        cancelled = False
        for done, (node, board) in enumerate(iter_boards(game, nodes), 1):
            if cancel is not None and cancel.is_set():
                cancelled = True
                break
            analysis, cached = self._position(board)
            positions[node] = analysis
            if progress is not None and progress(Progress(done, len(nodes), node, cached)) is False:
                cancelled = done < len(nodes)
                break
        return GameAnalysis(
            game, positions, engine=self.engine_id, limit=limit_text(self.limit), model=self.model,
            thresholds=self.thresholds, cancelled=cancelled,
        )


def analyse_game(
    engine: AnalysingEngine, game: Game, limit: Limit, *, multipv: int = 1, lines: str = "main",
    cache: AnalysisCache | None = None, model: WinRateModel = DEFAULT_WIN_RATE,
    thresholds: Thresholds = DEFAULT_THRESHOLDS, progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> GameAnalysis:
    """Analyse *game* with *engine* (see :class:`Analyser`)."""
    analyser = Analyser(engine, limit, multipv=multipv, cache=cache, model=model, thresholds=thresholds)
    return analyser.game(game, lines=lines, progress=progress, cancel=cancel)


def analyse_position(
    engine: AnalysingEngine, board: Board, limit: Limit, *, multipv: int = 1, cache: AnalysisCache | None = None,
) -> PositionAnalysis:
    """Analyse one position with *engine* (see :class:`Analyser`)."""
    return Analyser(engine, limit, multipv=multipv, cache=cache).position(board)


__all__ = [
    "Analyser",
    "AnalysingEngine",
    "AnalysisOptionError",
    "Progress",
    "ProgressCallback",
    "analyse_game",
    "analyse_position",
]
