"""Running an engine over positions and games: :class:`Analyser`.

Each position is searched once to the per-position :class:`~shogiban.engines.Limit` with
MultiPV; a position already in the cache (same engine, limit and MultiPV) is not searched
again.  A checkmated position is not searched at all (it is lost for the side to move).

Candidate mistakes are searched again before they are labelled: a move whose loss by the first
searches (see :mod:`shogiban.analysis.game`) is at least the mistake threshold has the position
before it searched to a larger limit (:func:`confirm_limit`: 2 more plies, twice the nodes or
the time), and that search decides its loss and label (:class:`~shogiban.analysis.game.Confirmation`):
the best line's score minus the played move's score, both from that search (the played move is
one of its MultiPV lines, or a second search at the larger limit restricted by ``searchmoves``
to the best move and the move played gives both).  When a time limit cut that search between
the two lines (their depths differ, or a score is only a bound), the two lines are searched again
restricted to those two moves to the deeper line's depth, so that the scores compared differ by
the moves alone and not by a ply more of search.  Only if the engine names no line for the move
played is the position after it searched to the larger limit instead.  Re-searches
are cached under their own limit (and ``searchmoves``), so neither the order of the searches
nor what the cache held changes a label.

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

import dataclasses
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from shogiban.analysis.cache import AnalysisCache, cache_key, limit_text
from shogiban.analysis.classify import DEFAULT_THRESHOLDS, Thresholds
from shogiban.analysis.game import Confirmation, GameAnalysis, first_loss, iter_boards, nodes_to_analyse, played_line
from shogiban.analysis.positions import Line, PositionAnalysis, lines_from_infos, position_key, terminal_analysis
from shogiban.board import Board
from shogiban.engines.limit import Limit, to_seconds
from shogiban.engines.results import InfoDict
from shogiban.engines.score import DEFAULT_WIN_RATE, WinRateModel
from shogiban.errors import ShogibanError
from shogiban.kifu.game import Game, GameNode
from shogiban.move import Move


class AnalysingEngine(Protocol):
    """What an analysis needs of an engine (a :class:`~shogiban.engines.SimpleEngine` has it)."""

    @property
    def name(self) -> str: ...  # pragma: no cover - protocol

    def analyse(
        self, board: Board, limit: Limit, *, multipv: int, searchmoves: Sequence[Move] | None = None,
    ) -> list[InfoDict]: ...  # pragma: no cover - protocol

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


def confirm_limit(limit: Limit) -> Limit:
    """The larger limit a candidate mistake is searched again to: 2 more plies, and twice the
    nodes, the time and the clock.

    >>> limit_text(confirm_limit(Limit(depth=6))), limit_text(confirm_limit(Limit(time=0.3)))
    ('depth 8', 'movetime 0.6')
    """
    changes: dict[str, object] = {}
    if limit.depth is not None:
        changes["depth"] = limit.depth + 2
    if limit.nodes is not None:
        changes["nodes"] = limit.nodes * 2
    for name in ("time", "btime", "wtime", "byoyomi", "binc", "winc"):
        value = getattr(limit, name)
        if value is not None:
            changes[name] = to_seconds(value) * 2
    return dataclasses.replace(limit, **changes)  # type: ignore[arg-type]


class Analyser:
    """Analyses positions and games with *engine* to *limit* per position.

    :param engine_id: the name positions are cached under (default: the engine's name).
    :param engine_name: the name the outputs give the engine (default: *engine_id*).
    :param confirm: whether candidate mistakes are searched again (see the module docstring).
    :param confirm_with: the limit of those searches (default: :func:`confirm_limit` of *limit*).
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
        engine_name: str | None = None,
        confirm: bool = True,
        confirm_with: Limit | None = None,
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
        self.engine_name = engine_name or self.engine_id
        self.confirm_with = (confirm_with or confirm_limit(limit)) if confirm else None
        if self.confirm_with is not None and not self.confirm_with.is_bounded():
            raise AnalysisOptionError(f"an analysis needs a limit that ends: {limit_text(self.confirm_with)}")
        self.model = model
        self.thresholds = thresholds
        self.independent = independent
        self.searches = 0
        """Searches made by the engine (cache hits and mates on the board not counted)."""
        self.confirmations = 0
        """Candidate mistakes searched again (from the cache or not)."""

    def position(self, board: Board) -> PositionAnalysis:
        """The analysis of *board* (from the cache, or searched)."""
        return self._position(board)[0]

    def _position(self, board: Board, limit: Limit | None = None) -> tuple[PositionAnalysis, bool]:
        done = terminal_analysis(board, self.engine_name)
        if done is not None:
            return done, True
        lines, cached = self._search(board, limit or self.limit, self.multipv)
        return PositionAnalysis(position_key(board), board.turn, lines, self.engine_name), cached

    def _search(
        self, board: Board, limit: Limit, multipv: int, searchmoves: Sequence[Move] = (),
    ) -> tuple[tuple[Line, ...], bool]:
        """The lines of one search (from the cache if there), and whether they were cached.  The
        key has the limit and the ``searchmoves``: a re-search is cached under its own."""
        text = limit_text(limit) + "".join(f" searchmoves {m.usi()}" for m in searchmoves)
        ckey = cache_key(self.engine_id, limit, multipv, position_key(board))._replace(limit=text)
        lines = self.cache.get(ckey)
        if lines is not None:
            return lines, True
        if self.independent:
            self.engine.new_game()
        if searchmoves:
            infos = self.engine.analyse(board, limit, multipv=multipv, searchmoves=list(searchmoves))
        else:
            infos = self.engine.analyse(board, limit, multipv=multipv)
        self.searches += 1
        lines = lines_from_infos(board, infos)
        self.cache.put(ckey, lines)
        return lines, False

    def confirm(self, board: Board, move: Move) -> Confirmation | None:
        """Search *board* again to the larger limit and measure *move* against its best line
        (see the module docstring); None without a larger limit or if the engine gives no score."""
        limit = self.confirm_with
        if limit is None or terminal_analysis(board) is not None:
            return None
        self.confirmations += 1
        text = limit_text(limit)
        lines, _ = self._search(board, limit, self.multipv)
        if not lines:
            return None
        best = lines[0]
        if not best.pv or best.pv[0] == move:
            return Confirmation(text, best, best)
        played = played_line(PositionAnalysis(position_key(board), board.turn, lines), move)
        if played is None:
            pair, _ = self._search(board, limit, 2, (best.pv[0], move))
            found = self._pair(pair, best.pv[0], move)
            if found is not None:
                best, played = found
        if played is not None:
            if _comparable(best, played):
                return Confirmation(text, best, played)
            # A time limit stopped the search between the two lines (or inside one): their scores
            # are of different depths, and in shogi one more ply can swing a score by a piece.
            # Both again, to the deeper one's depth, so that they differ by the moves alone.
            depth = max(best.depth or 0, played.depth or 0)
            level = Limit(depth=depth)
            pair, _ = self._search(board, level, 2, (best.pv[0], move))
            found = self._pair(pair, best.pv[0], move)
            if found is not None:
                return Confirmation(f"{text}; {limit_text(level)}", *found)
            return Confirmation(text, best, played)
        # The engine gave no line for the move played: the position after it, to the same limit.
        after = board.copy(stack=False)
        after.push(move)
        analysed, _ = self._position(after, limit)
        if analysed.score is None:
            return None
        return Confirmation(text, best, Line(analysed.score, (move, *analysed.pv), depth=analysed.depth,
                                             nodes=analysed.nodes), same_search=False)

    @staticmethod
    def _pair(lines: Sequence[Line], best: Move, played: Move) -> tuple[Line, Line] | None:
        """The lines of *best* and *played* in a search restricted to them, if it gave both."""
        first = next((line for line in lines if line.pv and line.pv[0] == best), None)
        second = next((line for line in lines if line.pv and line.pv[0] == played), None)
        return None if first is None or second is None else (first, second)

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
        confirmations: dict[GameNode, Confirmation] = {}
        if self.confirm_with is not None and not cancelled:
            candidates = [node for node in nodes if self._candidate(node, positions)]
            wanted: dict[GameNode, list[GameNode]] = {}
            for node in candidates:
                if node.parent is not None:
                    wanted.setdefault(node.parent, []).append(node)
            for parent, board in iter_boards(game, list(wanted)):
                for node in wanted[parent]:
                    if cancel is not None and cancel.is_set():
                        cancelled = True
                        break
                    assert node.move is not None
                    found = self.confirm(board, node.move)
                    if found is not None:
                        confirmations[node] = found
                if cancelled:
                    break
        return GameAnalysis(
            game, positions, engine=self.engine_name, limit=limit_text(self.limit), model=self.model,
            thresholds=self.thresholds, cancelled=cancelled, confirmations=confirmations,
            confirm_limit=None if self.confirm_with is None else limit_text(self.confirm_with),
        )

    def _candidate(self, node: GameNode, positions: dict[GameNode, PositionAnalysis]) -> bool:
        """Whether *node*'s move is a candidate mistake by the first searches."""
        parent = node.parent
        if node.move is None or parent is None or parent not in positions or node not in positions:
            return False
        loss = first_loss(positions[parent], positions[node], node.move, self.model)
        return loss is not None and loss >= self.thresholds.mistake


def _comparable(best: Line, played: Line) -> bool:
    """Whether two lines of one search can be compared as they are: exact scores (not the bound
    of a line cut short) of the same depth, or a mate (exact at any depth).  An engine that does
    not report depths is taken at its word."""
    if best.score.lowerbound or best.score.upperbound or played.score.lowerbound or played.score.upperbound:
        return False
    if best.depth is None or played.depth is None or best.depth == played.depth:
        return True
    return best.score.is_mate() and played.score.is_mate()


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
    "confirm_limit",
]
