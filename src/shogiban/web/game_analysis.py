"""Whole-game analysis of finished games on the server: :class:`AnalysisService`.

A request queues the game; one worker process (its own, at the lowest priority, so the
engines' computer moves and hints always go first, and never the event loop) analyses it with
the built-in engine at the server's per-position limit (:class:`AnalysisSettings`), reporting
progress (positions done / total) through shared memory, which the event loop reads a few times
a second and pushes to the game's websocket subscribers as ``analysis`` messages
(:class:`~shogiban.web.messages.AnalysisMessage`).  The result
(:meth:`shogiban.analysis.GameAnalysis.to_json`) is stored with the game
(:class:`~shogiban.web.store.GameAnalysisRow`), so a second visit, another browser, another web
process or a spectator sees it at once.

Limits: one analysis per game at a time (asking again while it is queued or running gets its
status), one running at a time, at most :attr:`AnalysisSettings.max_waiting` waiting (more are
refused with ``busy``, 503).  A queued analysis can be cancelled at once, a running one
between two searches (within one search's time).

An uploaded record is analysed the same way (``POST /api/records/analysis``): it is checked and
keyed off the event loop (:func:`prepare_record`: the sha256 of its normalised start SFEN and
moves), stored (:class:`~shogiban.web.store.RecordAnalysisRow`), and queued under
:data:`RECORD_PREFIX` + its key, in the same queue and with the same limits as games.

With ``--redis`` and a live ``shogiban worker`` taking the ``analysis`` queue, the same
:func:`run_analysis` runs there instead, as an RQ job (:class:`RemoteAnalyses`, implemented by
:class:`shogiban.web.job_queue.QueuedAnalyses`): progress and cancellation go through Redis, a
lost worker's job is run once more (elsewhere, or here when no worker is left).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, Literal, Protocol

from shogiban.engines.limit import Limit
from shogiban.web.messages import AnalysisMessage
from shogiban.web.schema import RequestError
from shogiban.web.store import AsyncStore, StoredAnalysis, StoredRecord

log = logging.getLogger(__name__)

#: The default per-position limit: depth 6 is deterministic (the same game gives the same
#: analysis on every server and run, unlike a time limit that depends on the machine's load)
#: and takes about 0.2 s a position for the pure-Python engine on one core, so a 120-move game
#: is analysed in well under a minute; candidate mistakes are searched again to depth 8.
DEFAULT_LIMIT = Limit(depth=6)
#: Analyses that may wait for the worker (more are refused as busy).
MAX_WAITING = 16
#: Positions a game may have to be analysed (longer games are refused: ``too_large``).
MAX_POSITIONS = 1000
#: The worker's niceness: below the engine workers' (10), so moves and hints go first.
WORKER_NICENESS = 19
#: Listed as the job to stop when the service closes: the running analysis stops.
STOP_ALL = -1
#: Moves of each position's best line given in every notation (``best_line``); the whole line
#: stays in USI in ``pv``.
MAX_LINE_FORMS = 10
#: The service's key of a record's analysis: this + the record's key (game ids have no colon).
RECORD_PREFIX = "record:"

Status = Literal["queued", "running", "done", "cancelled", "failed"]


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    """What the worker is given (picklable: it crosses into the worker process)."""

    job_id: int
    game_id: str
    start_sfen: str
    moves: tuple[str, ...]
    limit: Limit
    level: int
    max_positions: int


@dataclass(frozen=True, slots=True)
class AnalysisOutcome:
    """What the worker answers."""

    engine: str
    limit: str
    result: dict[str, Any]
    cancelled: bool


# -- in the worker process ----------------------------------------------------------------------

_PROGRESS: Any = None
"""Shared with the server: ``[job id, done, total]`` of the analysis running."""
_CANCEL: Any = None
"""Shared with the server: ``[job id]`` of an analysis to stop (or :data:`STOP_ALL`)."""
_ENGINE: Any = None


def init_worker(progress: Any, cancel: Any) -> None:
    """The worker's initializer: die with the server, think at the lowest priority, and share
    the progress and cancellation slots."""
    from shogiban.children import die_with_parent

    global _PROGRESS, _CANCEL
    _PROGRESS, _CANCEL = progress, cancel
    die_with_parent()
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # not permitted on some systems: it still works
            os.nice(WORKER_NICENESS)


def report_progress(job_id: int, done: int, total: int) -> None:
    """Tell the server how far analysis *job_id* is."""
    if _PROGRESS is not None:
        _PROGRESS[:] = [job_id, done, total]


def cancel_requested(job_id: int) -> bool:
    """Whether the server asked to stop analysis *job_id*."""
    return _CANCEL is not None and _CANCEL[0] in (job_id, STOP_ALL)


def _engine(level: int) -> Any:
    global _ENGINE
    if _ENGINE is None:
        from shogiban.analysis.batch import EngineSpec

        _ENGINE = EngineSpec(level=level).start()  # the engine `shogiban analyse` runs
    return _ENGINE


def best_line_forms(start_sfen: str, moves: tuple[str, ...], result: dict[str, Any],
                    max_moves: int = MAX_LINE_FORMS) -> dict[str, Any]:
    """*result* (``GameAnalysis.to_json()`` of the game *start_sfen* + *moves*) with, for each
    analysed position, ``best_line``: the first *max_moves* moves of its ``pv``, each in every
    notation the pages offer (:func:`shogiban.notation.forms.move_forms`, as the game room gives
    each played move).  Nothing else is changed: without ``best_line`` it is the same as
    ``shogiban analyse --json``.  A line that stops being legal is cut there.
    """
    from shogiban.board import Board
    from shogiban.errors import ShogibanError
    from shogiban.move import Move
    from shogiban.notation.forms import move_forms

    board = Board(start_sfen)
    played = 0
    positions: list[dict[str, Any]] = []
    for entry in result.get("positions", ()):
        ply = entry.get("ply", 0)
        while played < min(ply, len(moves)):
            board.push_usi(moves[played])
            played += 1
        entry = dict(entry)
        pv = entry.get("pv")
        if isinstance(pv, list) and pv:
            line: list[dict[str, str]] = []
            after = board.copy()
            for usi in pv[:max_moves]:
                try:
                    move = Move.from_usi(usi)
                    line.append(move_forms(after, move))
                    after.push(move)
                except (ShogibanError, ValueError):
                    break
            entry["best_line"] = line
        positions.append(entry)
    return result | {"positions": positions} if "positions" in result else dict(result)


def run_analysis(job: AnalysisJob) -> AnalysisOutcome:
    """Analyse *job*'s game (runs in the worker process).  The result is ``shogiban analyse
    --json``'s for the same game and limit (named by the job's key, not a file), with each
    position's best line in every notation (:func:`best_line_forms`), computed here, once,
    before it is stored."""
    from shogiban.analysis import Analyser, Progress, limit_text
    from shogiban.analysis.batch import EngineSpec
    from shogiban.kifu.game import Game, GameNode
    from shogiban.move import Move

    game = Game(job.start_sfen)
    node: GameNode = game.root
    for usi in job.moves:
        node = node.add_main_variation(Move.from_usi(usi))
    engine = _engine(job.level)
    engine.new_game()  # a game's analysis does not depend on the one before it
    stop = threading.Event()
    finished = threading.Event()

    def watch() -> None:
        # Searches look at `stop` between them; this turns the server's request into it.
        while not finished.wait(0.05):
            if cancel_requested(job.job_id):
                stop.set()
                return

    def progress(step: Progress) -> None:
        report_progress(job.job_id, step.done, step.total)

    watcher = threading.Thread(target=watch, name="analysis-cancel", daemon=True)
    watcher.start()
    try:
        # As `shogiban analyse --engine builtin:LEVEL` runs and names it: each position searched
        # afresh, so the same game and limit give the same analysis here, on a worker and there.
        analyser = Analyser(engine, job.limit, independent=True,
                            engine_name=EngineSpec(level=job.level).display_name(engine.name))
        analysis = analyser.game(game, progress=progress, cancel=stop, max_positions=job.max_positions)
    finally:
        finished.set()
        watcher.join()
    result = best_line_forms(job.start_sfen, job.moves, analysis.to_json(name=job.game_id))
    return AnalysisOutcome(engine=analyser.engine_name, limit=limit_text(job.limit), result=result,
                           cancelled=analysis.cancelled)


def record_key(start_sfen: str, moves: tuple[str, ...]) -> str:
    """The key of a record's analysis: the sha256 (hex) of its normalised start SFEN and moves.

    >>> record_key("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", ("7g7f",))[:12]
    'b86446d334b0'
    """
    return hashlib.sha256(f"{start_sfen}\nmoves {' '.join(moves)}".encode()).hexdigest()


def prepare_record(sfen: str, moves: list[str], max_positions: int = MAX_POSITIONS) -> StoredRecord:
    """Check a record to analyse (its start SFEN and main-line USI moves) and normalise it: the
    start SFEN as the board writes it, each move with its notations (as a game's moves), its key
    (:func:`record_key`).  Replays the moves: run it off the event loop.

    :raises RequestError: ``too_large`` (413) past *max_positions* positions, ``invalid_sfen`` or
        ``invalid_move`` (400).
    """
    from shogiban.board import Board
    from shogiban.errors import ShogibanError
    from shogiban.notation.forms import move_forms
    from shogiban.web.schema import excerpt, shorten

    if len(moves) + 1 > max_positions:
        raise RequestError("too_large", f"too many moves to analyse: {len(moves)} (at most {max_positions - 1})",
                           413)
    try:
        board = Board(sfen)
    except (ShogibanError, ValueError) as error:
        raise RequestError("invalid_sfen", f"invalid start position: {excerpt(sfen)} ({shorten(str(error))})") from None
    start = board.sfen()
    entries: list[dict[str, Any]] = []
    for ply, usi in enumerate(moves, 1):
        try:
            move = board.parse_usi(usi)
            forms = move_forms(board, move)
            board.push(move)
        except (ShogibanError, ValueError) as error:
            raise RequestError("invalid_move", f"invalid move {ply}: {excerpt(usi)} ({shorten(str(error))})") from None
        entries.append({"ply": ply, "usi": forms["usi"], "label": forms["japanese"], "forms": forms})
    played = tuple(entry["usi"] for entry in entries)
    return StoredRecord(key=record_key(start, played), start_sfen=start, moves=entries, end_sfen=board.sfen(),
                        created_at=time.time())


def batch_record_analysis(
    data: dict[str, Any], max_positions: int = MAX_POSITIONS,
) -> tuple[StoredRecord, StoredAnalysis]:
    """A game of ``shogiban analyse`` (its ``--json`` data) as the web stores a record's
    analysis: the record of its start position and analysed moves, keyed as the record viewer
    keys it (:func:`record_key`), and the result with each best line in every notation, named
    by the key.  Someone who then opens the same record in the viewer finds it analysed.

    :raises RequestError: as :func:`prepare_record`, or ``invalid_analysis`` for data without
        its positions.
    """
    positions = data.get("positions")
    if not isinstance(positions, list) or not positions or not isinstance(positions[0].get("sfen"), str):
        raise RequestError("invalid_analysis", "an analysis without its positions")
    moves = [str(entry["move"]) for entry in positions[1:] if entry.get("move")]
    record = prepare_record(positions[0]["sfen"], moves, max_positions)
    result = best_line_forms(record.start_sfen, tuple(moves), data) | {"name": record.key}
    analysis = StoredAnalysis(game_id=record.key, engine=str(data.get("engine") or ""),
                              limit=str(data.get("limit") or ""), result=result, created_at=time.time())
    return record, analysis


@dataclass(frozen=True)
class AnalysisSettings:
    """The server's choices for whole-game analysis (``create_app(analysis=...)``)."""

    limit: Limit = DEFAULT_LIMIT
    """The per-position limit (bounded: a depth, nodes or a time)."""
    max_waiting: int = MAX_WAITING
    max_positions: int = MAX_POSITIONS
    level: int = 8
    """The built-in engine's level (8: its full strength)."""
    poll_seconds: float = 0.25
    """How often the event loop looks at the worker's progress (at most that many messages)."""
    run: Callable[[AnalysisJob], AnalysisOutcome] = run_analysis
    """The function the worker runs (tests pass a stand-in: a module-level function)."""



# -- in the server --------------------------------------------------------------------------------


@dataclass
class _Analysis:
    """An analysis queued or running."""

    game_id: str
    job_id: int
    status: Status = "queued"
    done: int = 0
    total: int = 0
    cancelled: bool = False
    task: asyncio.Task[None] | None = None
    save: Callable[[StoredAnalysis], None] | None = None
    """Where the result is stored (default: with the game)."""

    def message(self) -> AnalysisMessage:
        return AnalysisMessage(status=self.status, done=self.done, total=self.total)


Notify = Callable[[str, AnalysisMessage], None]


class RemoteAnalyses(Protocol):
    """Where analyses run when not in the service's own process (engine workers)."""

    async def analyse(self, job: AnalysisJob, progress: Callable[[int, int], None], cancelled: Callable[[], bool],
                      poll_seconds: float) -> AnalysisOutcome | None:
        """The outcome, or None when nobody is there to run it (the service runs it itself)."""

    async def close(self) -> None:
        """Close the connections."""


class AnalysisService:
    """Queues, runs, reports, cancels and stores whole-game analyses (see the module docstring).

    :param store: where results are kept.
    :param notify: called with a game id and each message for that game's subscribers.
    :param executor: the worker pool (default: one spawned process, started on first use).
    :param remote: engine workers that run analyses while they are alive (``--redis``).
    """

    def __init__(
        self, store: AsyncStore, notify: Notify, settings: AnalysisSettings | None = None, *,
        executor: Executor | None = None, remote: RemoteAnalyses | None = None,
    ) -> None:
        self.store = store
        self.remote = remote
        self.notify = notify
        self.settings = settings or AnalysisSettings()
        context = get_context("spawn")  # a fork of a server running threads is not safe
        self._progress: Any = context.Array("q", 3, lock=False)
        self._cancel: Any = context.Array("q", 1, lock=False)
        if executor is None:
            executor = ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=init_worker,
                                           initargs=(self._progress, self._cancel))
        self._executor = executor
        self._slot = asyncio.Lock()  # one analysis at a time; its waiters are served in order
        self._active: dict[str, _Analysis] = {}
        self._failed: dict[str, str] = {}
        self._ids = itertools.count(1)

    @property
    def waiting(self) -> int:
        """Analyses waiting for the worker."""
        return sum(1 for entry in self._active.values() if entry.status == "queued")

    async def stored(self, game_id: str) -> StoredAnalysis | None:
        """The stored analysis of *game_id*, if it has one."""
        return await self.store.run(self.store.store.load_analysis, game_id)

    def status(self, game_id: str) -> AnalysisMessage | None:
        """Where the analysis of *game_id* is (queued, running, or failed last time), or None."""
        entry = self._active.get(game_id)
        if entry is not None:
            return entry.message()
        code = self._failed.get(game_id)
        return None if code is None else AnalysisMessage(status="failed", code=code)

    def start(self, game_id: str, start_sfen: str, moves: tuple[str, ...], *,
              save: Callable[[StoredAnalysis], None] | None = None) -> AnalysisMessage:
        """Queue the analysis of a finished game (its status if it is already queued or running);
        *save* (a :class:`~shogiban.web.store.GameStore` method, run on the store's thread) stores
        the result (default: with the game; a record's key is :data:`RECORD_PREFIX` + its key).

        :raises RequestError: ``busy`` (503) when :attr:`AnalysisSettings.max_waiting` wait.
        """
        entry = self._active.get(game_id)
        if entry is not None:
            return entry.message()
        if self.waiting >= self.settings.max_waiting:
            raise RequestError("busy", "the server is analysing other games: please try again later", 503)
        settings = self.settings
        entry = _Analysis(game_id, next(self._ids), total=len(moves) + 1, save=save)
        job = AnalysisJob(entry.job_id, game_id, start_sfen, moves, settings.limit, settings.level,
                          settings.max_positions)
        self._active[game_id] = entry
        self._failed.pop(game_id, None)
        entry.task = asyncio.create_task(self._analyse(entry, job), name=f"analysis-{game_id}")
        self.notify(game_id, entry.message())
        return entry.message()

    def cancel(self, game_id: str) -> AnalysisMessage | None:
        """Cancel the analysis of *game_id*: a queued one leaves the queue, a running one's worker
        stops at its next search (its slot is given to the next one when it has).  None if there
        was none."""
        entry = self._active.pop(game_id, None)
        if entry is None:
            return None
        entry.cancelled = True
        if entry.status == "running":
            self._cancel[0] = entry.job_id
        elif entry.task is not None:
            entry.task.cancel()
        message = AnalysisMessage(status="cancelled", done=entry.done, total=entry.total)
        self.notify(game_id, message)
        return message

    async def _analyse(self, entry: _Analysis, job: AnalysisJob) -> None:
        try:
            async with self._slot:
                if entry.cancelled:
                    return
                entry.status = "running"
                self.notify(entry.game_id, entry.message())
                outcome = await self._execute(entry, job)
            if entry.cancelled or outcome.cancelled:
                return  # cancel() said so already (or the service is closing)
            key = entry.game_id.removeprefix(RECORD_PREFIX)
            stored = StoredAnalysis(key, outcome.engine, outcome.limit, outcome.result, time.time())
            await self.store.run(entry.save or self.store.store.save_analysis, stored)
            self.notify(entry.game_id, AnalysisMessage(status="done", done=entry.total, total=entry.total,
                                                       result=outcome.result))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # an engine crash, a game too long: said to the page, logged
            code = getattr(error, "code", None)
            code = code if isinstance(code, str) else "engine_error"
            log.warning("analysis of game %s failed: %r", entry.game_id, error)
            if not entry.cancelled:
                self._failed[entry.game_id] = code
                self.notify(entry.game_id, AnalysisMessage(status="failed", done=entry.done, total=entry.total,
                                                           code=code))
        finally:
            if self._active.get(entry.game_id) is entry:
                del self._active[entry.game_id]

    async def _execute(self, entry: _Analysis, job: AnalysisJob) -> AnalysisOutcome:
        """Run *job* on an engine worker when one is alive, else in the service's own worker,
        passing its progress on until it answers."""
        if self.remote is not None:
            outcome = await self.remote.analyse(job, lambda done, total: self._progressed(entry, done, total),
                                                lambda: entry.cancelled, self.settings.poll_seconds)
            if outcome is not None:
                return outcome
        work = asyncio.wrap_future(self._executor.submit(self.settings.run, job))
        while True:
            finished, _ = await asyncio.wait({work}, timeout=self.settings.poll_seconds)
            job_id, done, total = self._progress[:]
            if job_id == entry.job_id:
                self._progressed(entry, done, total)
            if finished:
                return work.result()

    def _progressed(self, entry: _Analysis, done: int, total: int) -> None:
        if (done, total) != (entry.done, entry.total) and not entry.cancelled:
            entry.done, entry.total = done, total
            self.notify(entry.game_id, entry.message())

    async def close(self, grace: float = 5.0) -> None:
        """Stop: waiting analyses are dropped, the running one is told to stop; a worker still
        busy after *grace* seconds is left to die with the server."""
        self._cancel[0] = STOP_ALL
        tasks = [entry.task for entry in self._active.values() if entry.task is not None]
        self._active.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        shutdown = asyncio.ensure_future(asyncio.to_thread(self._executor.shutdown, wait=True, cancel_futures=True))
        try:
            await asyncio.wait_for(asyncio.shield(shutdown), grace)
        except TimeoutError:
            log.warning("the analysis worker did not stop within %.1f s; it ends with the server", grace)
        if self.remote is not None:
            await self.remote.close()
