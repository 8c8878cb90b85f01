"""What the USI server needs from an engine, and the adapter for the built-in one.

The server (:mod:`shogiban.usi.server`) speaks to a :class:`SearchBackend` in the engines
vocabulary (:class:`~shogiban.engines.Limit`, :class:`~shogiban.engines.InfoDict`,
:class:`~shogiban.engines.PlayResult`, :class:`~shogiban.engines.MateResult`), so the protocol
logic is tested without an engine and the built-in engine (:mod:`shogiban.engine`) and tsume
solver (:mod:`shogiban.tsume`) are only imported when the GUI first asks for ``isready``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from shogiban.board import Board
from shogiban.engines.limit import Limit
from shogiban.engines.results import InfoDict, MateResult, PlayResult
from shogiban.usi.wire import GoCommand

if TYPE_CHECKING:
    from shogiban.engine import BuiltinSearch

InfoCallback = Callable[[InfoDict], None]


class SearchBackend(Protocol):
    """An engine as the USI server drives it.  ``search`` and ``mate`` block and run in a worker
    thread; they must return soon after *stop* is set."""

    level: int
    """Playing strength 1 (weakest) .. 8 (strongest)."""
    hash_mb: int
    """Transposition table size in MB (applied at :meth:`prepare`)."""
    multipv: int
    """Lines each search reports (``MultiPV``)."""

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


def go_limit(go: GoCommand) -> Limit:
    """The :class:`Limit` of the ``go`` command *go*.  Ponder and infinite searches get no limit
    at all: the server stops them.

    >>> from shogiban.usi.wire import parse_go
    >>> go_limit(parse_go("btime 30000 wtime 33000 binc 5000 winc 5000")).go_args()
    ['btime', '30000', 'wtime', '33000', 'binc', '5000', 'winc', '5000']
    >>> go_limit(parse_go("ponder btime 0 wtime 0 byoyomi 1000"))
    Limit(time=None, depth=None, nodes=None, btime=None, wtime=None, byoyomi=None, binc=None, winc=None, infinite=True)
    """
    if go.infinite or go.ponder:
        return Limit(infinite=True)
    clock = any(value is not None for value in (go.btime, go.wtime, go.byoyomi, go.binc, go.winc))
    return Limit(
        time=go.movetime,
        depth=go.depth,
        nodes=go.nodes,
        btime=(go.btime or 0.0) if clock else None,
        wtime=(go.wtime or 0.0) if clock else None,
        byoyomi=go.byoyomi,
        binc=go.binc,
        winc=go.winc,
    )


class BuiltinBackend:
    """The built-in engine (:mod:`shogiban.engine`) and tsume solver (:mod:`shogiban.tsume`)."""

    def __init__(
        self, level: int = 8, hash_mb: int = 64, seed: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.level = level
        self.hash_mb = hash_mb
        self.multipv = 1
        self.seed = seed
        self.clock = clock
        """The engine's clock: the server's, since ``go.started`` is read on it."""
        self._engine: BuiltinSearch | None = None
        self._engine_hash_mb = 0

    def prepare(self) -> None:
        """Create the engine (again, if the hash size changed)."""
        from shogiban.engine import BuiltinSearch

        if self._engine is None or self._engine_hash_mb != self.hash_mb:
            self._engine = BuiltinSearch(self.level, hash_mb=self.hash_mb, seed=self.seed, clock=self.clock)
            self._engine_hash_mb = self.hash_mb
        self._engine.level = self.level

    def _ready_engine(self) -> BuiltinSearch:
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
        return self._ready_engine().search(
            board, go_limit(go), stop=stop, on_info=on_info, searchmoves=go.searchmoves, multipv=self.multipv,
            started=go.started,
        )

    def mate(self, board: Board, timeout: float | None, *, stop: threading.Event) -> MateResult:
        """Run the tsume solver by game rules (see :func:`shogiban.engines.builtin.solve_mate`)."""
        from shogiban.engines.builtin import solve_mate

        return solve_mate(board, timeout, stop)
