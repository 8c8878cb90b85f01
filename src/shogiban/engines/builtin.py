"""The built-in engine in this process, behind the same :class:`~shogiban.engines.Engine` protocol
as any USI engine: ``play``, ``analyse`` (with MultiPV), a stoppable ``analysis`` stream, ``mate``
(by the tsume solver), options, ``quit``.

::

    engine = BuiltinEngine(level=8)
    result = await engine.play(board, Limit(byoyomi=1))
    lines = await engine.analyse(board, Limit(depth=4), multipv=3)
    await engine.quit()

Each search runs in a worker thread of its own with a stop event, so the event loop stays free;
the thread hands its reports and its answer to the loop.  Deadlines are those of the USI client
(:meth:`Limit.deadline`): past it the search is told to stop, and a search that does not end
within :attr:`BuiltinEngine.timeout` more seconds makes the engine unusable
(:class:`EngineTimeoutError`; a thread cannot be killed, it is left to end by itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from shogiban import __version__
from shogiban.board import Board
from shogiban.engines.analysis import AnalysisResult, InfoQueue
from shogiban.engines.interface import mate_seconds
from shogiban.engines.limit import (
    BUILTIN_MAX_MULTIPV,
    DEFAULT_SEARCH_TIMEOUT,
    DEFAULT_TIMEOUT,
    STOP_GRACE,
    Limit,
    Seconds,
)
from shogiban.engines.options import ConfigValue, Option, Options
from shogiban.engines.results import InfoDict, MateResult, PlayResult
from shogiban.errors import (
    EngineError,
    EngineMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
    ShogibanError,
)
from shogiban.move import Move

if TYPE_CHECKING:
    from shogiban.engine import BuiltinSearch as Search
    from shogiban.engines.interface import Engine

T = TypeVar("T")

MAX_MULTIPV = BUILTIN_MAX_MULTIPV
"""The most lines ``MultiPV`` may ask for (the search's own bound)."""


def builtin_options(level: int = 8, hash_mb: int = 64, multipv: int = 1) -> tuple[Option, ...]:
    """The options the built-in engine declares, with these defaults."""
    return (
        Option("Level", "spin", level, 1, 8),
        Option("USI_Hash", "spin", hash_mb, 1, 4096),
        Option("MultiPV", "spin", multipv, 1, MAX_MULTIPV),
    )


def solve_mate(board: Board, seconds: float | None, stop: threading.Event) -> MateResult:
    """A mate search by game rules with the tsume solver (USI ``go mate``): a GUI replays the line
    and expects it to end in a real checkmate, so futile interpositions count, and uniqueness is
    not searched.

    :raises ShogibanError: for a position that cannot be a mate problem (no king to mate, the
        defender in check).
    """
    from shogiban.tsume import solve

    limit = None if seconds is None or math.isinf(seconds) else seconds
    found = solve(board, timeout=limit, stop=stop, conventions=False, check_unique=False)
    if found.status == "mate":
        return MateResult("mate", tuple(found.moves))
    if found.status == "nomate":
        return MateResult("nomate")
    return MateResult("timeout")


def _mate_work(job: _Job[MateResult], seconds: float | None) -> MateResult:
    try:
        return solve_mate(job.board, seconds, job.stop)
    except ShogibanError:  # not a mate problem (no king to mate, the defender in check): no mate
        return MateResult("nomate")


def _position_key(board: Board) -> tuple[str, tuple[Move, ...]]:
    return board.starting_sfen, tuple(board.move_stack)


class _Job(Generic[T]):
    """One search in its worker thread: its stop event, its reports and its answer."""

    def __init__(self, loop: asyncio.AbstractEventLoop, board: Board, kind: str, *, analysis: bool) -> None:
        self.loop = loop
        self.board = board
        self.key = _position_key(board)
        self.kind = kind
        """``go``, ``ponder``, ``analysis`` or ``mate``."""
        self.stop = threading.Event()
        self.done: asyncio.Future[T] = loop.create_future()
        self.info = InfoDict()
        """The latest report of line 1."""
        self.lines: dict[int, InfoDict] = {}
        """The latest report of each line, by rank."""
        self.queue: InfoQueue | None = InfoQueue() if analysis else None
        self.watchdog: asyncio.Task[None] | None = None

    def run(self, work: Callable[[_Job[T]], T]) -> None:
        """Start *work* in a worker thread."""
        threading.Thread(target=self._work, args=(work,), name=f"shogiban-{self.kind}", daemon=True).start()

    def _work(self, work: Callable[[_Job[T]], T]) -> None:
        try:
            result = work(self)
        except Exception as error:  # an engine bug: the caller gets an EngineError, not a hang
            self._call(self.fail, EngineError(f"the built-in engine failed: {error!r}"))
        else:
            self._call(self._finish, result)

    def report(self, info: InfoDict) -> None:
        """A report from the search (called in the worker thread)."""
        self._call(self._report, info)

    def _call(self, callback: Callable[..., None], *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            self.loop.call_soon_threadsafe(callback, *args)

    def _report(self, info: InfoDict) -> None:
        if self.done.done():
            return
        rank = info.get("multipv", 1)
        self.lines[rank] = info
        if rank == 1:
            self.info = info
        if self.queue is not None:
            self.queue.put(info)

    def _finish(self, result: T) -> None:
        if not self.done.done():
            self.done.set_result(result)
        self._close()

    def fail(self, error: EngineError) -> None:
        if not self.done.done():
            self.done.set_exception(error)
            self.done.exception()  # marked as retrieved: callers that stopped waiting must not warn
        self._close()

    def _close(self) -> None:
        if self.queue is not None:
            self.queue.close()
        if self.watchdog is not None and self.watchdog is not asyncio.current_task():
            self.watchdog.cancel()

    def ranked(self) -> list[InfoDict]:
        """The latest report of each line, best first."""
        return [self.lines[rank] for rank in sorted(self.lines)] or [self.info]


class BuiltinEngine:
    """The built-in engine (:mod:`shogiban.engine`) in this process, as an asyncio engine with the
    methods of :class:`~shogiban.usi.UsiProtocol` (see the module docstring).

    :param level: strength 1..8 (option ``Level``).
    :param hash_mb: transposition table bound in MB (option ``USI_Hash``).
    :param seed: seed of the lower levels' random choices (None: from the system).
    :param timeout: seconds a search gets to end after it was told to stop.
    :param search_timeout: the deadline of a search without a time limit (depth, nodes, none).
    :param search: the search to use instead of a new :class:`shogiban.engine.BuiltinSearch` (tests).
    """

    def __init__(
        self, level: int = 8, *, hash_mb: int = 64, seed: int | None = None, timeout: float = DEFAULT_TIMEOUT,
        search_timeout: float = DEFAULT_SEARCH_TIMEOUT, search: Search | None = None,
    ) -> None:
        if search is None:
            from shogiban.engine import BuiltinSearch

            search = BuiltinSearch(level, hash_mb=hash_mb, seed=seed)
        self.search: Search = search
        """The search every command runs (not thread-safe: use it only through this object)."""
        self.timeout = timeout
        """Seconds a search gets to end after ``stop``."""
        self.search_timeout = search_timeout
        """Seconds a search without a time limit may take before it is stopped."""
        self.stop_grace = STOP_GRACE
        """Seconds past a search's own time before it is stopped."""
        self.id: dict[str, str] = {"name": f"shogiban {__version__}", "author": "shogiban developers"}
        """``name`` and ``author``."""
        self.options = Options()
        """The options the engine declares (``Level``, ``USI_Hash``, ``MultiPV``)."""
        for option in builtin_options(self.search.level, self.search.hash_mb):
            self.options.add(option)
        self.config: dict[str, str | None] = {}
        """The option values set with :meth:`configure`, by option name."""
        self.multipv = 1
        """Lines an analysis reports when not told (option ``MultiPV``)."""
        self._lock = asyncio.Lock()
        self._job: _Job[Any] | None = None
        self._error: EngineError | None = None

    @property
    def name(self) -> str:
        """``id name``."""
        return self.id["name"]

    @property
    def alive(self) -> bool:
        """Whether the engine still takes commands."""
        return self._error is None

    # -- plumbing -------------------------------------------------------------------------------

    def _check(self) -> None:
        if self._error is not None:
            raise type(self._error)(str(self._error))  # a fresh copy: raising one twice chains tracebacks

    def _start(self, board: Board, kind: str, work: Callable[[_Job[T]], T], *, analysis: bool = False) -> _Job[T]:
        job: _Job[T] = _Job(asyncio.get_running_loop(), board.copy(), kind, analysis=analysis)
        self._job = job
        job.run(work)
        return job

    def _search_work(
        self, limit: Limit, searchmoves: Iterable[Move] | None, multipv: int
    ) -> Callable[[_Job[PlayResult]], PlayResult]:
        moves = tuple(searchmoves or ())

        def work(job: _Job[PlayResult]) -> PlayResult:
            return self.search.search(
                job.board, limit, stop=job.stop, on_info=job.report, searchmoves=moves, multipv=multipv
            )

        return work

    def _watch(self, job: _Job[Any], deadline: float | None) -> None:
        """Past *deadline* seconds stop *job*; if it still runs :attr:`timeout` seconds later, give up."""
        if job.watchdog is not None:
            job.watchdog.cancel()
        if deadline is not None and not job.done.done():
            job.watchdog = asyncio.ensure_future(self._watchdog(job, deadline))

    async def _watchdog(self, job: _Job[Any], deadline: float) -> None:
        await asyncio.wait([job.done], timeout=deadline)
        if job.done.done():
            return
        job.stop.set()
        await asyncio.wait([job.done], timeout=self.timeout)
        if job.done.done():
            return
        self._give_up(EngineTimeoutError(
            f"{self.name}: no answer to {job.kind!r} search within {deadline + self.timeout:.1f} s (after stop); "
            "engine given up"
        ), job)

    def _give_up(self, error: EngineError, job: _Job[Any] | None) -> None:
        """The engine is unusable from now on (*error*); *job*, if still running, fails with it."""
        if self._error is None:
            self._error = error
        if job is not None:
            job.stop.set()
            job.fail(type(error)(str(error)))

    async def _end_search(self) -> None:
        """Stop a running search (ponder, analysis) and wait for it; its answer is dropped.

        :raises EngineTimeoutError: if it does not end within :attr:`timeout` (the engine is given up).
        """
        job, self._job = self._job, None
        if job is None:
            return
        job.stop.set()
        if not job.done.done():
            await asyncio.wait([job.done], timeout=self.timeout)
        if not job.done.done():
            self._give_up(EngineTimeoutError(
                f"{self.name}: the {job.kind!r} search did not stop within {self.timeout:g} s; engine given up"
            ), job)
            self._check()

    def _deadline(self, board: Board, limit: Limit, timeout: float | None) -> float | None:
        if timeout is not None:
            return timeout
        return limit.deadline(board.turn, grace=self.stop_grace, default=self.search_timeout)

    async def _answer(self, job: _Job[T]) -> T:
        try:
            return await job.done
        finally:
            if self._job is job:
                self._job = None

    # -- commands -------------------------------------------------------------------------------

    async def configure(self, options: Mapping[str, ConfigValue]) -> None:
        """Set ``Level``, ``USI_Hash`` or ``MultiPV`` (``USI_`` options it does not have are ignored).

        :raises EngineError: for an unknown option or a value that does not fit.
        """
        values: dict[str, int] = {}
        for name, value in options.items():
            if name not in self.options:
                if name.startswith("USI_"):
                    continue  # as GUIs send them to every engine
                known = ", ".join(self.options)
                raise EngineError(f"{self.name}: unknown option {name!r} (the engine declares: {known})")
            option = self.options[name]
            values[option.name] = int(option.value_text(value) or 0)
        async with self._lock:
            self._check()
            await self._end_search()
            for name, number in values.items():
                if name == "Level":
                    self.search.level = number
                elif name == "USI_Hash":
                    self.search.hash_mb = number
                else:
                    self.multipv = number
                self.config[name] = str(number)

    async def ping(self) -> None:
        """End any search; the engine is then ready."""
        async with self._lock:
            self._check()
            await self._end_search()

    async def new_game(self) -> None:
        """Forget the previous game (the transposition table and history); a seeded engine also
        starts its random choices again from the seed, so that it is reproducible game by game
        (and an analysis that starts each search afresh does not depend on what came before)."""
        async with self._lock:
            self._check()
            await self._end_search()
            self.search.new_game()
            self.search.restart_random()

    async def game_over(self, result: str) -> None:
        """The game ended (*result*: ``win``, ``lose`` or ``draw`` for the engine): end any search.

        :raises ValueError: for another result.
        """
        if result not in ("win", "lose", "draw"):
            raise ValueError(f"invalid game result: {result!r} (expected win, lose or draw)")
        async with self._lock:
            self._check()
            await self._end_search()

    async def play(
        self, board: Board, limit: Limit, *, ponder: bool = False, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> PlayResult:
        """Search *board* under *limit* and return the move (or a resignation, or ``declared_win``).

        With ``ponder=True`` the engine goes on thinking on the expected reply until the next
        command; its table then speeds up the next search of that position.

        :param timeout: seconds before the search is stopped (default: the limit's deadline).
        :raises ValueError: for an infinite limit (use :meth:`analysis`).
        :raises EngineTimeoutError: if the search does not end after it was stopped.
        :raises EngineError: if the search fails.
        """
        if limit.infinite:
            raise ValueError(f"invalid limit for play: {limit!r} (infinite; use analysis() and stop it)")
        async with self._lock:
            self._check()
            await self._end_search()
            job = self._start(board, "go", self._search_work(limit, searchmoves, 1))
            self._watch(job, self._deadline(board, limit, timeout))
            result: PlayResult = await self._answer(job)
            if result.move is not None and not board.is_legal(result.move):  # pragma: no cover - never happens
                text = result.move.usi()
                message = f"{self.name} played an illegal move: {text!r} in {board.sfen()}"
                raise EngineMoveError(message, text, result.move)
            if ponder and result.move is not None and result.ponder is not None:
                after = board.copy()
                after.push(result.move)
                after.push(result.ponder)
                pondering = self._start(after, "ponder", self._search_work(Limit(infinite=True), None, 1))
                self._watch(pondering, self.search_timeout)
            return result

    async def analysis(
        self, board: Board, limit: Limit | None = None, *, multipv: int | None = None,
        searchmoves: Iterable[Move] | None = None, timeout: float | None = None,
    ) -> BuiltinAnalysis:
        """Start analysing *board* (until stopped, without a *limit*) and return the running analysis.

        :param multipv: lines to report (default: the ``MultiPV`` option).
        """
        limit = limit or Limit(infinite=True)
        lines = self.multipv if multipv is None else multipv
        if not isinstance(lines, int) or not 1 <= lines <= MAX_MULTIPV:
            raise ValueError(f"invalid multipv: {multipv!r} (expected 1..{MAX_MULTIPV})")
        async with self._lock:
            self._check()
            await self._end_search()
            job = self._start(board, "analysis", self._search_work(limit, searchmoves, lines), analysis=True)
            self._watch(job, self._deadline(board, limit, timeout))
            return BuiltinAnalysis(job, watch=self._watch, answer=self._answer)

    @overload
    async def analyse(
        self, board: Board, limit: Limit, *, multipv: None = None, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> InfoDict: ...

    @overload
    async def analyse(
        self, board: Board, limit: Limit, *, multipv: int, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> list[InfoDict]: ...

    async def analyse(
        self, board: Board, limit: Limit, *, multipv: int | None = None, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> InfoDict | list[InfoDict]:
        """Analyse *board* until *limit*: the info of the best line, or with *multipv* the last
        info of each of that many lines, best first (fewer if the position has fewer moves).

        :raises ValueError: for a limit that never ends (use :meth:`analysis`).
        """
        if not limit.is_bounded():
            raise ValueError(f"invalid limit for analyse: {limit!r} (it would never end; use analysis())")
        running = await self.analysis(board, limit, multipv=multipv, searchmoves=searchmoves, timeout=timeout)
        await running.wait()
        return running.info if multipv is None else running.multipv

    async def mate(
        self, board: Board, limit: Limit | Seconds | None = None, *, timeout: float | None = None
    ) -> MateResult:
        """Look for a mate by the tsume solver within *limit*'s time (a :class:`Limit` or seconds;
        none: up to :attr:`search_timeout`)."""
        seconds = mate_seconds(limit)
        async with self._lock:
            self._check()
            await self._end_search()
            job = self._start(board, "mate", lambda job: _mate_work(job, seconds))
            if timeout is None:
                timeout = self.search_timeout if seconds is None else seconds + self.stop_grace
            self._watch(job, timeout)
            result: MateResult = await self._answer(job)
            return result

    async def stop_pondering(self) -> None:
        """End a ponder search, if any."""
        async with self._lock:
            self._check()
            await self._end_search()

    async def quit(self) -> None:
        """End any search; later calls raise :class:`EngineTerminatedError`."""
        async with self._lock:
            if self._error is None:
                with contextlib.suppress(EngineError):
                    await self._end_search()
                if self._error is None:
                    self._error = EngineTerminatedError(f"{self.name}: engine has quit")

    async def kill(self) -> None:
        """Stop at once: any search is told to stop and dropped; later calls raise
        :class:`EngineTerminatedError`."""
        self._give_up(EngineTerminatedError(f"{self.name}: engine was killed"), self._job)
        self._job = None

    def __repr__(self) -> str:
        return f"<BuiltinEngine level={self.search.level}>"


class BuiltinAnalysis(AnalysisResult):
    """A running analysis of the built-in engine (see :class:`~shogiban.engines.AnalysisResult`)."""

    def __init__(
        self,
        job: _Job[PlayResult],
        *,
        watch: Callable[[_Job[Any], float | None], None],
        answer: Callable[[_Job[PlayResult]], Awaitable[PlayResult]],
    ) -> None:
        assert job.queue is not None
        super().__init__(job.queue)
        self._job = job
        # The engine's own job handling, handed over so the handle needs no engine internals.
        self._watch = watch
        self._answer = answer

    @property
    def info(self) -> InfoDict:
        """Everything the engine said about its best line so far."""
        return self._job.info

    @property
    def multipv(self) -> list[InfoDict]:
        """The latest info of each line, best first."""
        return self._job.ranked()

    def stop(self) -> None:
        """Ask the search to stop (its answer then comes within about 50 ms)."""
        self._job.stop.set()
        self._watch(self._job, 0.0)

    async def wait(self) -> PlayResult:
        """Wait until the analysis ends and return the engine's best move."""
        return await self._answer(self._job)

    def _failure(self) -> BaseException | None:
        done = self._job.done
        return done.exception() if done.done() and not done.cancelled() else None


if TYPE_CHECKING:

    def _conforms(engine: BuiltinEngine) -> Engine:
        return engine  # mypy checks BuiltinEngine against the Engine protocol here


__all__ = ["MAX_MULTIPV", "BuiltinAnalysis", "BuiltinEngine", "builtin_options", "solve_mate"]
