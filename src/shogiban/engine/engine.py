"""The built-in computer opponent: :class:`BuiltinSearch` (blocking ``search`` or threaded ``start``),
in the engines vocabulary: a :class:`~shogiban.engines.Limit` in, a
:class:`~shogiban.engines.PlayResult` with :class:`~shogiban.engines.InfoDict` reports out.

>>> from shogiban import Board
>>> engine = BuiltinSearch(level=3, seed=1)
>>> result = engine.search(Board(), Limit(depth=1))
>>> result.move in Board().legal_moves
True
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterable

from shogiban.board import Board
from shogiban.engine.levels import LevelProfile, profile
from shogiban.engine.search import TT_ENTRY_BYTES, Searcher, mate_in
from shogiban.engine.timeman import TimePlan, plan_time
from shogiban.engines.limit import BUILTIN_MAX_MULTIPV, Limit
from shogiban.engines.results import InfoDict, PlayResult
from shogiban.move import MOVES, Move

InfoCallback = Callable[[InfoDict], None]
"""Receives the search's reports (in the search's thread)."""

MAX_MULTIPV = BUILTIN_MAX_MULTIPV
"""The most principal variations one search reports."""

#: Levels that resign resign only against a mate at most this many plies away, found by a search
#: at least two plies deeper (so pruning cannot have hidden a defence).
RESIGN_MATE_PLIES = 6


class BuiltinSearch:
    """A shogi engine with strength levels 1 (beginner) to 8 (strongest).

    :param level: strength, 1..8 (settable later through ``level``).
    :param hash_mb: size bound of the transposition table in megabytes.
    :param seed: seed of the random choices of the lower levels (None: from the system).
    :param clock: the time source of time limits and reports (seconds; tests inject one).
    """

    def __init__(
        self, level: int = 8, *, hash_mb: int = 64, seed: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._profile: LevelProfile = profile(level)
        if not isinstance(hash_mb, int) or hash_mb < 1:
            raise ValueError(f"invalid hash size: {hash_mb!r} (expected a positive number of megabytes)")
        self.hash_mb = hash_mb
        self._seed = seed
        self._rng = random.Random(seed)
        self._tt: dict[int, tuple[int, int, int, int]] = {}
        self._history: list[int] = [0] * 65536
        self._lock = threading.Lock()
        self.clock = clock

    @property
    def level(self) -> int:
        """Strength level, 1..8."""
        return self._profile.level

    @level.setter
    def level(self, value: int) -> None:
        self._profile = profile(value)

    def new_game(self) -> None:
        """Forget everything learnt in the previous game (table, history)."""
        with self._lock:
            self._tt.clear()
            self._history = [0] * 65536

    def restart_random(self) -> None:
        """Make the lower levels' random choices again from the seed, so that the same searches
        give the same results (no effect on an engine made without a seed)."""
        if self._seed is not None:
            with self._lock:
                self._rng.seed(self._seed)

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        stop: threading.Event | None = None,
        on_info: InfoCallback | None = None,
        searchmoves: Iterable[Move] | None = None,
        multipv: int = 1,
        started: float | None = None,
    ) -> PlayResult:
        """Think about *board* (never modified) within *limit* and return the move.

        Blocks until a limit is reached or *stop* is set (it then returns within about 50 ms).
        Declares an entering-king win when the board's rule allows it, and resigns only without a
        legal move or, at levels 5 and up, against a certain short mate.

        :param on_info: gets a report after each iteration, at least every second inside a long
            one, and last always the line and score of the move returned (``result.info``).
        :param searchmoves: consider only these root moves (USI ``go searchmoves``); the illegal
            ones are ignored, and all moves are searched if none is legal.
        :param multipv: report this many best lines (1..:data:`MAX_MULTIPV`), each with its rank
            as ``multipv``; the move returned is line 1's.
        :param started: when this move's time began, on the engine's clock (default: when the
            search starts); a server passes the moment ``go`` arrived, so its own delays count.
        :raises ValueError: for a *multipv* out of range.
        """
        if not isinstance(multipv, int) or not 1 <= multipv <= MAX_MULTIPV:
            raise ValueError(f"invalid multipv: {multipv!r} (expected 1..{MAX_MULTIPV})")
        with self._lock:
            return self._search(board, limit, stop, on_info, tuple(searchmoves or ()), multipv, started)

    def start(
        self,
        board: Board,
        limit: Limit,
        *,
        on_info: InfoCallback | None = None,
        searchmoves: Iterable[Move] | None = None,
        multipv: int = 1,
    ) -> SearchHandle:
        """Run :meth:`search` in a background thread; the handle stops it and gets the result."""
        return SearchHandle(self, board, limit, on_info, tuple(searchmoves or ()), multipv)

    # -- internals ---------------------------------------------------------------------------------

    def _search(
        self,
        board: Board,
        limit: Limit,
        stop: threading.Event | None,
        on_info: InfoCallback | None,
        searchmoves: tuple[Move, ...],
        multipv: int,
        started: float | None,
    ) -> PlayResult:
        prof = self._profile
        pos = board.copy()
        pos._ending = None
        if pos.can_declare_win():
            return PlayResult(None, declared_win=True)
        codes = pos._legal_codes()
        if not codes:
            return PlayResult(None, resigned=True)
        if searchmoves:
            wanted = {move.code for move in searchmoves if move.code in codes}
            codes = [code for code in codes if code in wanted] or codes
        plan = self._plan(limit, pos)
        max_depth = _tighter(limit.depth, None if limit.infinite else prof.max_depth)
        searcher = Searcher(
            pos,
            prof,
            self._tt,
            max(1024, self.hash_mb * (1 << 20) // TT_ENTRY_BYTES),
            self._history,
            self._rng,
            plan=plan,
            max_depth=max_depth,
            max_nodes=_tighter(limit.nodes, None if limit.infinite else prof.max_nodes),
            stop=stop,
            on_info=on_info,
            clock=self.clock,
            start=started,
            multipv=multipv,
        )
        moves = self._root_moves(pos, codes)
        code, score, pv, info = searcher.think(moves)
        move = MOVES[code]
        if move is None or code not in codes:  # pragma: no cover - the search only plays listed moves
            move = MOVES[codes[0]]
        ponder = MOVES[pv[1]] if len(pv) > 1 and pv[0] == code else None
        mate = mate_in(score)
        report = info if info is not None else InfoDict()
        if (
            prof.resigns
            and mate is not None
            and -RESIGN_MATE_PLIES <= mate < 0
            and info is not None
            and info["depth"] >= -mate + 2
            and searcher.settled
            and not limit.infinite
        ):
            return PlayResult(None, info=report, resigned=True)
        return PlayResult(move, ponder, report)

    def _plan(self, limit: Limit, board: Board) -> TimePlan:
        prof = self._profile
        plan = plan_time(limit, board.turn, ply=board.move_number - 1)
        if plan.soft is None or plan.hard is None or plan.exact:
            return plan
        soft, hard = plan.soft, plan.hard
        if prof.max_time is not None:
            soft = min(soft, prof.max_time)
            hard = min(hard, max(soft, prof.max_time))
        return TimePlan(soft, hard)

    def _root_moves(self, board: Board, codes: list[int]) -> list[int]:
        """The root moves this level considers, in a first order (captures first).  A beginner
        overlooks some captures."""
        prof = self._profile
        squares = board._board
        moves = sorted(codes, key=lambda c: squares[c & 127] != 0, reverse=True)
        if prof.miss_capture > 0:
            seen = [c for c in moves if not squares[c & 127] or self._rng.random() >= prof.miss_capture]
            if seen:
                moves = seen
        return moves


def _tighter(a: int | None, b: int | None) -> int | None:
    """The smaller of two optional caps."""
    if a is None:
        return b
    return a if b is None else min(a, b)


class SearchHandle:
    """A search running in a background thread (see :meth:`BuiltinSearch.start`)."""

    def __init__(
        self,
        engine: BuiltinSearch,
        board: Board,
        limit: Limit,
        on_info: InfoCallback | None,
        searchmoves: tuple[Move, ...] = (),
        multipv: int = 1,
    ) -> None:
        self._stop = threading.Event()
        self._result: PlayResult | None = None
        self._error: BaseException | None = None
        board = board.copy()  # the caller may move on while the search runs
        self._thread = threading.Thread(
            target=self._run, args=(engine, board, limit, on_info, searchmoves, multipv), name="shogiban-search",
            daemon=True,
        )
        self._thread.start()

    def _run(
        self,
        engine: BuiltinSearch,
        board: Board,
        limit: Limit,
        on_info: InfoCallback | None,
        searchmoves: tuple[Move, ...],
        multipv: int,
    ) -> None:
        try:
            self._result = engine.search(
                board, limit, stop=self._stop, on_info=on_info, searchmoves=searchmoves, multipv=multipv
            )
        except BaseException as error:  # handed to result(): the caller's thread re-raises it
            self._error = error

    def stop(self) -> None:
        """Ask the search to stop now; :meth:`result` then returns within about 50 ms."""
        self._stop.set()

    def done(self) -> bool:
        """Whether the search has finished."""
        return not self._thread.is_alive()

    def result(self, timeout: float | None = None) -> PlayResult:
        """Wait for the search (at most *timeout* seconds) and return its result.

        :raises TimeoutError: if the search is still running after *timeout*.
        """
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError(f"search still running after {timeout!r} seconds")
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result
