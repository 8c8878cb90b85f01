"""Computer players for the web server, behind one ``async think(request)`` interface.

* :class:`BuiltinEngines` runs :class:`shogiban.engine.BuiltinSearch` in a process pool: the search is
  pure Python and CPU-bound, so it must not run in the event loop's process (the GIL would make
  every game wait).  Worker processes run at a lower priority so the server answers moves at once
  even while engines think, and die with the server however it dies
  (:func:`shogiban.children.die_with_parent`).
* :class:`UsiEngines` drives the external USI engine the server was started with
  (``shogiban serve --engine CMD``), one engine process per game, started on demand, with the
  limits of :func:`shogiban.game.clock_limit` (as the terminal game and the match runner).
  The USI client runs each engine in its own process group, ended with the server.

A request carries the start position and the moves, so repetition history is known to the engine.

The built-in engine's searches wait their turn here, never in the process pool's own queue: at
most one search per worker is handed to the pool, computer moves go before hints, a game has at
most one search of each kind waiting (a newer one replaces it), and a search whose request is
cancelled (the room cancels it after an undo, a resignation ...) leaves the queue at once.  A
search already running is not interrupted (its worker is busy until its limit), but it is the
only stale one a game can have: move/undo loops cannot fill the pool for everyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import os
import secrets
import shlex
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from multiprocessing import get_context
from typing import Any, Protocol

from shogiban.board import Board
from shogiban.engines.limit import Limit
from shogiban.errors import EngineError
from shogiban.game import Decision, Declare, EngineFailure, GameState, PlayMove, Resign, decision_from_error
from shogiban.game.clock import Clock
from shogiban.game.time_budget import clock_limit
from shogiban.move import Move
from shogiban.outcome import EnteringKingRule

log = logging.getLogger(__name__)

#: Level used for hints: strong, but with a short time limit.
HINT_LEVEL = 6
#: Seconds a hint may take.
HINT_TIME = 1.0


@dataclass(frozen=True, slots=True)
class ThinkRequest:
    """What the engine is asked (picklable: it crosses into a worker process)."""

    start_sfen: str
    """Start position of the game."""
    moves: tuple[str, ...]
    """USI moves played since."""
    level: int = 1
    """Strength, 1..8."""
    movetime: float | None = None
    """A fixed time for this move (hints), seconds."""
    rule: str = EnteringKingRule.POINTS_27.value
    """The entering-king rule's value."""
    seed: int | None = None
    """Random seed of the weaker levels."""
    game_id: str = ""
    """The game asking (USI engines keep one process per game)."""
    hint: bool = False
    """A hint for a player (waits behind every computer move)."""
    search_id: int = 0
    """Set by :class:`BuiltinEngines`: how a worker learns that this search was cancelled."""
    clock: dict[str, Any] | None = None
    """The game clock (:meth:`shogiban.game.Clock.to_dict`), when it has a time control: the
    only source of a timed search's limit."""
    now: float | None = None
    """When the request was made, on the clock's time line."""
    asked_at: float = field(default_factory=time.monotonic)
    """When the request was made, on the machine's monotonic clock (shared by its processes):
    the time it then waits for a worker is taken off the game clock's budget too."""

    def limit(self) -> Limit | None:
        """The limit of this search from the fixed time or the game clock, by the one conversion
        every front end uses (:func:`shogiban.game.clock_limit`), as of now (a search that waited
        in the queue has that much less time); None when neither is given."""
        if self.movetime is not None:
            return clock_limit(Clock(), movetime=self.movetime)
        if self.clock is not None:
            waited = max(0.0, time.monotonic() - self.asked_at)
            return clock_limit(Clock.from_dict(self.clock), now=None if self.now is None else self.now + waited)
        return None

    def board(self) -> Board:
        """The position to think about.

        :raises ShogibanError: if the start position or a move is not valid.
        """
        board = Board(self.start_sfen, lenient=True, entering_king_rule=EnteringKingRule(self.rule))
        for usi in self.moves:
            board.push_legal(Move.from_usi(usi))
        return board


@dataclass(frozen=True, slots=True)
class ThinkResult:
    """The engine's answer."""

    move: str | None
    """USI of the move, or None to resign."""
    declare_win: bool = False
    """Declare an entering-king win instead of moving."""
    score_cp: int | None = None
    """Evaluation for the side to move, centipawns."""
    score_mate: int | None = None
    """Mate in plies (positive: the side to move mates)."""
    pv: tuple[str, ...] = field(default_factory=tuple)
    """Expected line."""
    illegal: str | None = None
    """The engine's text when it was not a legal move (the engine loses the game): the core names
    the move and why it is illegal."""


class Thinker(Protocol):
    """Anything that answers think requests."""

    async def think(self, request: ThinkRequest) -> ThinkResult:
        """Choose a move for *request*'s position."""
        ...  # pragma: no cover - protocol

    async def release(self, game_id: str) -> None:
        """The game *game_id* is over: free what it held."""
        ...  # pragma: no cover - protocol

    async def close(self) -> None:
        """Stop every engine."""
        ...  # pragma: no cover - protocol


class ThinkingPlayer:
    """A computer side of a web game on the game core's one player protocol
    (:class:`shogiban.game.Player`): ``choose(state)`` asks the server's thinking service (the
    built-in engine's pool or the USI engines) and answers with the action to apply.  A failure is
    mapped as every front end maps it (:func:`shogiban.game.decision_from_error`: a crash or
    silence loses for that side, or on time when its clock has run out); an illegal move is
    returned as sent, for the room to adjudicate as a foul that names the move and why.

    :param thinker: the service (None: no engine on this server, which loses for that side).
    :param game_id: the game (USI engines keep one process per game).
    :param level: the built-in engine's strength.
    :param now: the clock's time line.
    :param movetime: a fixed time (hints) instead of the game clock.
    """

    def __init__(
        self, thinker: Thinker | None, *, game_id: str, level: int, name: str, now: Callable[[], float],
        movetime: float | None = None, hint: bool = False,
    ) -> None:
        self.thinker = thinker
        self.game_id = game_id
        self.level = level
        self.name = name
        self.now = now
        self.movetime = movetime
        self.hint = hint

    def request(self, state: GameState) -> ThinkRequest:
        """What the service is asked for *state*: the game clock's limit unless a fixed time is set."""
        timed = state.clock.control.enabled and self.movetime is None
        return ThinkRequest(
            start_sfen=state.start_sfen,
            moves=tuple(m.usi for m in state.moves),
            level=self.level,
            movetime=self.movetime,
            rule=state.rule.value,
            seed=secrets.randbits(32),
            game_id=self.game_id,
            hint=self.hint,
            clock=state.clock.to_dict() if timed else None,
            now=self.now() if timed else None,
        )

    async def choose(self, state: GameState) -> Decision:
        """The engine's decision for the side to move in *state*."""
        if self.thinker is None:
            return EngineFailure(state.turn, "no engine is available on this server")
        try:
            result = await self.thinker.think(self.request(state))
        except EngineError as error:
            return decision_from_error(state, error, self.name, now=self.now())
        if result.illegal is not None:
            return PlayMove(result.illegal)
        if result.declare_win:
            return Declare()
        if result.move is None:
            return Resign(state.turn)
        return PlayMove(result.move)


# -- the built-in engine, in worker processes -------------------------------------------------------

_WORKER_ENGINES: dict[int, Any] = {}
#: The ids of recently cancelled searches, shared with the workers (a ring of
#: :data:`CANCELLED_RING` slots written by the server, read by each worker's search).
CANCELLED_RING = 64
#: Listed in that ring when the server stops: every search stops.
STOP_ALL = -1
_CANCELLED: Any = None


class _Cancelled:
    """A worker's stop signal for one search: set once the server lists its id as cancelled
    (the search checks it every few thousand nodes, and returns within about 50 ms)."""

    def __init__(self, search_id: int) -> None:
        self.search_id = search_id

    def is_set(self) -> bool:
        if _CANCELLED is None:
            return False
        listed = _CANCELLED[:]
        return STOP_ALL in listed or (bool(self.search_id) and self.search_id in listed)


def _lower_priority() -> None:
    """Think at a lower priority than the web server."""
    if hasattr(os, "nice"):
        # Not permitted on some systems: thinking still works, at normal priority.
        with contextlib.suppress(OSError):
            os.nice(10)


def _init_worker(cancelled: Any = None) -> None:
    """Worker initializer: die with the server (even after ``kill -9``), think at a lower
    priority, and watch the server's list of cancelled searches."""
    from shogiban.children import die_with_parent

    global _CANCELLED
    _CANCELLED = cancelled

    die_with_parent()
    _lower_priority()


def builtin_think(request: ThinkRequest) -> ThinkResult:
    """Search *request*'s position with the built-in engine (runs in a worker process)."""
    from shogiban.engine import BuiltinSearch

    board = request.board()
    engine = _WORKER_ENGINES.get(request.level)
    if engine is None:
        engine = _WORKER_ENGINES[request.level] = BuiltinSearch(level=request.level, hash_mb=16, seed=request.seed)
    result = engine.search(board, request.limit() or Limit(), stop=_Cancelled(request.search_id))  # type: ignore[arg-type]
    score = result.info["score"].relative if "score" in result.info else None
    return ThinkResult(
        move=None if result.move is None else result.move.usi(),
        declare_win=result.declared_win,
        score_cp=None if score is None else score.cp,
        score_mate=None if score is None else score.mate,
        pv=tuple(m.usi() for m in result.info.get("pv", ())),
    )


def prepare_engines(levels: range = range(1, 9)) -> None:
    """Make the searchers of *levels* now (``shogiban worker`` does, before it forks a process per
    job: each inherits them instead of making its own)."""
    from shogiban.engine import BuiltinSearch

    for level in levels:
        if level not in _WORKER_ENGINES:
            _WORKER_ENGINES[level] = BuiltinSearch(level=level, hash_mb=16)


#: Searches that may wait for a worker (hints beyond this are refused as busy; a game's computer
#: move always waits, at most one per game).
MAX_WAITING_SEARCHES = 256


class BuiltinEngines:
    """The built-in engine in a pool of worker processes, searches queued by priority (see the
    module docstring).

    :param workers: number of processes (default: the CPU count minus one, at least one).
    :param executor: use this executor instead (tests pass a thread pool).
    :param think: the function run in the executor (tests pass a stand-in).
    :param max_waiting: searches that may wait for a worker.
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        executor: Executor | None = None,
        think: Callable[[ThinkRequest], ThinkResult] = builtin_think,
        max_waiting: int = MAX_WAITING_SEARCHES,
    ) -> None:
        count = workers or max(1, (os.cpu_count() or 2) - 1)
        context = get_context("spawn")
        # Ids of searches cancelled while running: their workers stop them and take the next.
        self._cancelled: Any = context.Array("q", CANCELLED_RING, lock=False)
        self._cancel_cursor = 0
        self._ids = itertools.count(secrets.randbits(40) + 1)
        if executor is None:
            # "spawn": a fork of a server running threads and an event loop is not safe.
            executor = ProcessPoolExecutor(
                max_workers=count, mp_context=context, initializer=_init_worker, initargs=(self._cancelled,)
            )
        self._executor = executor
        self._think = think
        self._slots = count
        self._running = 0
        self._max_waiting = max_waiting
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._waiting_of: dict[tuple[str, bool], asyncio.Future[None]] = {}
        self._order = itertools.count()

    @property
    def running(self) -> int:
        """Searches handed to the workers and not yet finished."""
        return self._running

    @property
    def waiting(self) -> int:
        """Searches waiting for a worker."""
        return len(self._waiting)

    async def _wait_turn(self, request: ThinkRequest) -> None:
        loop = asyncio.get_running_loop()
        key = (request.game_id, request.hint)
        previous = self._waiting_of.get(key)
        if previous is not None and request.game_id:
            previous.cancel()  # the game asks again: its older request is stale
        elif request.hint and self.waiting >= self._max_waiting:
            raise EngineError("the engines are busy: please try again in a moment")
        turn: asyncio.Future[None] = loop.create_future()
        self._waiting_of[key] = turn
        heapq.heappush(self._waiting, (1 if request.hint else 0, next(self._order), turn))
        self._start_next()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given a worker just as it was cancelled
                self._finished()
            else:  # it leaves the queue now, so that stale requests never pile up in it
                self._waiting = [entry for entry in self._waiting if entry[2] is not turn]
                heapq.heapify(self._waiting)
            raise
        finally:
            if self._waiting_of.get(key) is turn:
                del self._waiting_of[key]

    def _start_next(self) -> None:
        while self._running < self._slots and self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():
                self._running += 1
                turn.set_result(None)

    def _finished(self) -> None:
        self._running -= 1
        self._start_next()

    def _cancel(self, search_id: int) -> None:
        self._cancelled[self._cancel_cursor % CANCELLED_RING] = search_id
        self._cancel_cursor += 1

    async def think(self, request: ThinkRequest) -> ThinkResult:
        """Search in a worker, when the queue gives this request its turn.

        :raises EngineError: if the engine fails, or (a hint) when too many searches wait.
        """
        await self._wait_turn(request)
        loop = asyncio.get_running_loop()
        request = replace(request, search_id=next(self._ids))
        try:
            job = self._executor.submit(self._think, request)
        except BaseException:
            self._finished()
            raise
        # The worker is given back when the search ends, even if its request was cancelled meanwhile.
        job.add_done_callback(lambda _: loop.call_soon_threadsafe(self._finished))
        try:
            return await asyncio.shield(asyncio.wrap_future(job))
        except asyncio.CancelledError:
            if not job.cancel():  # running: tell its worker to stop, so the next search starts now
                self._cancel(request.search_id)
            raise
        except EngineError:
            raise
        except Exception as error:
            # A crashed worker (BrokenProcessPool, an engine bug) ends that game's engine, not the server.
            raise EngineError(f"built-in engine failed: {error!r}") from error

    async def release(self, game_id: str) -> None:
        """Nothing is held per game."""

    async def close(self, grace: float = 5.0) -> None:
        """Stop the workers: every running search is told to stop (it returns within about
        50 ms) and waiting ones are dropped; a worker still busy after *grace* seconds is left to
        die with this process (:func:`~shogiban.children.die_with_parent`): a long think must
        not hold up a server shutdown."""
        self._cancel(STOP_ALL)
        executor = self._executor
        shutdown = asyncio.ensure_future(asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True))
        try:
            await asyncio.wait_for(asyncio.shield(shutdown), grace)
        except TimeoutError:
            log.warning("an engine worker did not stop within %.1f s; it ends with the server", grace)


def engine_available() -> bool:
    """Whether the built-in engine is installed (``shogiban.engine``)."""
    try:
        import shogiban.engine  # noqa: F401
    except ImportError:
        return False
    return True


# -- an external USI engine -------------------------------------------------------------------------




class UsiEngines:
    """The USI engine the server was started with: one process per game (engines play one game
    at a time), at most *max_processes* at once; others wait for a free slot.

    :param command: the engine command line (split like a shell would).
    """

    def __init__(self, command: str, *, max_processes: int = 4, name: str | None = None) -> None:
        self.command = shlex.split(command)
        if not self.command:
            raise ValueError(f"invalid engine command: {command!r}")
        self.name = name or os.path.basename(self.command[0])
        self._engines: dict[str, Any] = {}
        self._transports: dict[str, asyncio.SubprocessTransport] = {}
        self._slots = asyncio.Semaphore(max_processes)
        self._held: set[str] = set()
        self._locks: dict[str, asyncio.Lock] = {}

    async def _engine_for(self, game_id: str) -> Any:
        engine = self._engines.get(game_id)
        if engine is not None:
            return engine
        from shogiban.usi import popen_usi

        if game_id not in self._held:
            await self._slots.acquire()
            self._held.add(game_id)
        try:
            transport, engine = await popen_usi(self.command)
        except BaseException:
            self._held.discard(game_id)
            self._slots.release()
            raise
        self._engines[game_id] = engine
        self._transports[game_id] = transport
        # The engine's own name (USI "id name") once known, e.g. "Fairy-Stockfish 11.1".
        self.name = getattr(engine, "id", {}).get("name") or self.name
        return engine

    async def think(self, request: ThinkRequest) -> ThinkResult:
        """Ask the game's engine process for a move.

        :raises EngineError: if the engine fails (the room then ends the game for it).
        """
        from shogiban.usi import EngineMoveError

        lock = self._locks.setdefault(request.game_id, asyncio.Lock())
        async with lock:
            board = request.board()
            engine = await self._engine_for(request.game_id)
            limit = request.limit() or clock_limit(Clock())
            try:
                result = await engine.play(board, limit)
            except EngineMoveError as error:
                # The engine's own text: the game core reads it and names the move and why it is illegal.
                return ThinkResult(move=None, illegal=error.text)
            except EngineError:
                await self.release(request.game_id)
                raise
            if result.declared_win:
                return ThinkResult(move=None, declare_win=True)
            if result.resigned or result.move is None:
                return ThinkResult(move=None)
            return ThinkResult(move=result.move.usi())

    async def release(self, game_id: str) -> None:
        """Quit the game's engine process."""
        engine = self._engines.pop(game_id, None)
        self._locks.pop(game_id, None)
        try:
            if engine is not None:
                with contextlib.suppress(EngineError):  # already dead: nothing left to stop
                    await engine.quit()
        finally:
            # Even when cancelled (server shutdown), close the pipes and free the slot.
            transport = self._transports.pop(game_id, None)
            if transport is not None:
                transport.close()
            if game_id in self._held:
                self._held.discard(game_id)
                self._slots.release()

    async def close(self) -> None:
        """Quit every engine process."""
        for game_id in set(self._engines) | set(self._transports):
            await self.release(game_id)
