"""What the USI server needs from an engine, and the adapter for the built-in one.

The server (:mod:`shogiban.usi.server`) speaks to a :class:`SearchBackend` in the client's own
vocabulary (:class:`~shogiban.usi.model.InfoDict`, :class:`~shogiban.usi.model.PlayResult`,
:class:`~shogiban.usi.model.MateResult`), so the protocol logic is tested without an engine and
the built-in engine (:mod:`shogiban.engine`) and tsume solver (:mod:`shogiban.tsume`) are only
imported when the GUI first asks for ``isready``.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from shogiban.board import Board
from shogiban.pieces import Color
from shogiban.usi.model import InfoDict, MateResult, PlayResult, Score
from shogiban.usi.wire import GoCommand

if TYPE_CHECKING:
    from shogiban.engine import Engine, SearchInfo

InfoCallback = Callable[[InfoDict], None]


class SearchBackend(Protocol):
    """An engine as the USI server drives it.  ``search`` and ``mate`` block and run in a worker
    thread; they must return soon after *stop* is set."""

    level: int
    """Playing strength 1 (weakest) .. 8 (strongest)."""
    hash_mb: int
    """Transposition table size in MB (applied at :meth:`prepare`)."""

    def prepare(self) -> None:
        """Do the heavy initialisation (called at ``isready``)."""

    def new_game(self) -> None:
        """Forget the previous game (``usinewgame``)."""

    def search(self, board: Board, go: GoCommand, *, stop: threading.Event, on_info: InfoCallback) -> PlayResult:
        """Choose a move for the side to move in *board* (``go``; ponder and infinite searches
        come with ``go.infinite`` or ``go.ponder`` set and must run until *stop*).

        ``go.started`` is when the move's time began on the server's clock (``go`` or
        ``ponderhit`` arrived): time limits count from there.  The server makes sure the last
        ``info`` with a pv before ``bestmove`` is the answer's line.
        """

    def mate(self, board: Board, timeout: float | None, *, stop: threading.Event) -> MateResult:
        """Look for a mate for the side to move (``go mate``)."""


def search_limits(go: GoCommand, turn: Color) -> dict[str, Any]:
    """The keyword arguments of ``shogiban.engine.SearchLimits`` for *go*, for the side *turn*.

    USI's ``btime``/``wtime`` exclude the increment of the move being played (SPECS gotcha 12),
    which the mover may spend now: ``time_left``, what the engine may spend now, is the main time
    plus that increment.  Ponder and infinite searches get no time limit: the server stops them.

    >>> from shogiban.usi.wire import parse_go
    >>> search_limits(parse_go("btime 30000 wtime 33000 binc 5000 winc 5000"), Color.WHITE)
    {'time_left': 38.0, 'byoyomi': 0.0, 'increment': 5.0}
    >>> search_limits(parse_go("ponder btime 0 wtime 0 byoyomi 1000"), Color.BLACK)
    {'infinite': True}
    """
    if go.infinite or go.ponder:
        return {"infinite": True}
    limits: dict[str, Any] = {}
    main = go.btime if turn == Color.BLACK else go.wtime
    increment = go.binc if turn == Color.BLACK else go.winc
    if any(value is not None for value in (go.btime, go.wtime, go.byoyomi, go.binc, go.winc)):
        limits["time_left"] = (main or 0.0) + (increment or 0.0)
        limits["byoyomi"] = go.byoyomi or 0.0
        limits["increment"] = increment or 0.0
    if go.movetime is not None:
        limits["movetime"] = go.movetime
    if go.depth is not None:
        limits["depth"] = go.depth
    if go.nodes is not None:
        limits["nodes"] = go.nodes
    if go.searchmoves:
        limits["searchmoves"] = go.searchmoves
    return limits


def info_from_search(info: SearchInfo) -> InfoDict:
    """The engine's :class:`shogiban.engine.SearchInfo` as an :class:`InfoDict`."""
    result = InfoDict(depth=info.depth, seldepth=info.seldepth, nodes=info.nodes, time=info.time, nps=info.nps)
    if info.score_mate is not None:
        result["score"] = Score(mate=info.score_mate, winning=info.score_mate > 0, lowerbound=info.lowerbound)
    elif info.score_cp is not None:
        result["score"] = Score(cp=info.score_cp, lowerbound=info.lowerbound)
    if info.pv:
        result["pv"] = list(info.pv)
    return result


class BuiltinBackend:
    """The built-in engine (:mod:`shogiban.engine`) and tsume solver (:mod:`shogiban.tsume`)."""

    def __init__(
        self, level: int = 8, hash_mb: int = 64, seed: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.level = level
        self.hash_mb = hash_mb
        self.seed = seed
        self.clock = clock
        """The engine's clock: the server's, since ``go.started`` is read on it."""
        self._engine: Engine | None = None
        self._engine_hash_mb = 0

    def prepare(self) -> None:
        """Create the engine (again, if the hash size changed)."""
        from shogiban.engine import Engine

        if self._engine is None or self._engine_hash_mb != self.hash_mb:
            self._engine = Engine(self.level, hash_mb=self.hash_mb, seed=self.seed, clock=self.clock)
            self._engine_hash_mb = self.hash_mb
        self._engine.level = self.level

    def _ready_engine(self) -> Engine:
        if self._engine is None or self._engine_hash_mb != self.hash_mb:
            self.prepare()
        assert self._engine is not None
        self._engine.level = self.level
        return self._engine

    def new_game(self) -> None:
        """Clear the engine's memory of the previous game."""
        self._ready_engine().new_game()

    def search(self, board: Board, go: GoCommand, *, stop: threading.Event, on_info: InfoCallback) -> PlayResult:
        """Run the engine's search."""
        from shogiban.engine import SearchLimits

        engine = self._ready_engine()
        limits = SearchLimits(**search_limits(go, board.turn), started=go.started)
        result = engine.search(board, limits, stop=stop, on_info=lambda info: on_info(info_from_search(info)))
        info = info_from_search(result.info) if result.info is not None else InfoDict()
        return PlayResult(
            result.move, result.ponder, info, resigned=result.move is None and not result.declare_win,
            declared_win=result.declare_win,
        )

    def mate(self, board: Board, timeout: float | None, *, stop: threading.Event) -> MateResult:
        """Run the tsume solver by game rules: a GUI replays the line and expects it to end in a
        real checkmate, so futile interpositions count here, and uniqueness is not searched."""
        from shogiban.tsume import solve

        limit = None if timeout is None or math.isinf(timeout) else timeout
        found = solve(board, timeout=limit, stop=stop, conventions=False, check_unique=False)
        if found.status == "mate":
            return MateResult("mate", tuple(found.moves))
        if found.status == "nomate":
            return MateResult("nomate")
        return MateResult("timeout")
