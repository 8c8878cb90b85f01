"""Engine work on a Redis job queue (RQ): computer moves and hints thought by ``shogiban worker``
processes, on this host or others, for every web process.

* The web side is :class:`QueuedEngines`, one more :class:`~shogiban.web.thinking.Thinker`: the
  game core's player (:class:`~shogiban.web.thinking.ThinkingPlayer`) does not know where its
  moves are thought.  While no worker has sent a heartbeat for :data:`WORKER_TIMEOUT` seconds (or
  Redis does not answer) it thinks in-process, with the :class:`BuiltinEngines` it wraps: the
  simple set-up needs nothing else.
* Priority: a worker takes jobs from :data:`QUEUES` in order (RQ looks at its queues in the order
  given), so computer moves go before hints, hints before live analysis
  (:mod:`shogiban.web.live_queue`), and that before whole-game analysis.
* Isolation: RQ's worker forks a work horse per job; an engine that crashes or hangs (past the
  job's timeout, from the game clock) ends that horse, never the worker.
* The web side owns the retry: it waits for a job's reply until the request's own deadline (the
  game clock's time left, on wall time so that hosts agree); if the worker that took it stops its
  heartbeat, the job is enqueued once more with the time then left (or thought in-process when no
  worker is left), and a second loss is the engine's failure (the game core decides: the engine
  loses, on time if its clock ran out).  A job refused for its input (a bad SFEN, an illegal move
  list) is not retried: its error is the answer.
* The queues are bounded (:data:`MAX_QUEUED`): a hint is then refused as busy, a computer move
  is thought in-process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from shogiban.engines.limit import DEFAULT_SEARCH_TIMEOUT
from shogiban.errors import EngineError, EngineTerminatedError, EngineTimeoutError, ShogibanError
from shogiban.pieces import Color
from shogiban.web.thinking import Thinker, ThinkRequest, ThinkResult, builtin_think, prepare_engines

if TYPE_CHECKING:
    from shogiban.engines.limit import Limit
    from shogiban.web.game_analysis import AnalysisJob, AnalysisOutcome

log = logging.getLogger(__name__)

#: The queues, by priority: a worker always takes a computer move before a hint.
MOVES_QUEUE = "shogiban-moves"
HINTS_QUEUE = "shogiban-hints"
LIVE_QUEUE = "shogiban-live"
ANALYSIS_QUEUE = "shogiban-analysis"
QUEUES = (MOVES_QUEUE, HINTS_QUEUE, LIVE_QUEUE, ANALYSIS_QUEUE)
#: Sorted sets of live workers, one per queue (:func:`workers_key`): name -> wall time of its last heartbeat.
WORKERS_PREFIX = "shogiban:workers:"
#: Heartbeats older than this are dropped when a worker starts (workers killed long ago).
STALE_SECONDS = 3600.0
#: Seconds between two heartbeats of a worker.
HEARTBEAT_SECONDS = 0.5
#: A worker silent for this long is taken for dead (its job is enqueued again).
WORKER_TIMEOUT = 2.0
#: Replies of a job (started, then result or error) are pushed on this list + the reply id.
REPLY_PREFIX = "shogiban:reply:"
#: Seconds a reply list is kept when nobody reads it.
REPLY_TTL = 60
#: Jobs that may wait in one queue.
MAX_QUEUED = 64
#: Seconds added to a search's own deadline for the trip through the queue (fork, Redis).
QUEUE_MARGIN = 2.0
#: Seconds between two looks at the worker of a job while its reply does not come.
POLL_SECONDS = 0.25
#: Seconds a failed job stays listed in RQ's failed registry, for `rq info`.
FAILED_TTL = 600
#: A discarded job's id is kept under this prefix (for FAILED_TTL seconds): a worker that had
#: already taken the job from its queue, but not yet begun it, drops it instead of running it.
DISCARDED_PREFIX = "shogiban:discarded:"


def workers_key(queue: str) -> str:
    """The sorted set of the workers that take jobs from *queue*."""
    return WORKERS_PREFIX + queue


class WorkerLostError(EngineTerminatedError):
    """The worker thinking a job stopped its heartbeat (killed, its host gone)."""

    code = "worker_lost"


class EngineBusyError(EngineError):
    """The queue is full: a hint is refused for now."""

    code = "busy"


# -- what crosses the queue: plain JSON values, never pickles of our classes -----------------------

def request_payload(request: ThinkRequest) -> dict[str, Any]:
    """*request* as JSON values.  Its time line is moved to wall time (``asked_wall``): the
    monotonic clock of one host means nothing on another."""
    local = ("asked_at", "search_id")  # meaningful in this process only
    payload = {f.name: getattr(request, f.name) for f in fields(ThinkRequest) if f.name not in local}
    payload["moves"] = list(request.moves)
    payload["asked_wall"] = time.time() - max(0.0, time.monotonic() - request.asked_at)
    return payload


def request_from_payload(payload: dict[str, Any]) -> ThinkRequest:
    """The request sent as *payload*, its waiting time (by wall time) taken off its clock."""
    known = {f.name for f in fields(ThinkRequest)} - {"asked_at", "search_id"}
    values = {key: value for key, value in payload.items() if key in known}
    values["moves"] = tuple(values.get("moves", ()))
    waited = max(0.0, time.time() - float(payload.get("asked_wall", time.time())))
    return ThinkRequest(**values, asked_at=time.monotonic() - waited)


def result_dict(result: ThinkResult) -> dict[str, Any]:
    """*result* as JSON values."""
    return {f.name: getattr(result, f.name) for f in fields(ThinkResult)} | {"pv": list(result.pv)}


def result_from_dict(values: dict[str, Any]) -> ThinkResult:
    """The result sent as *values*."""
    known = {f.name for f in fields(ThinkResult)}
    kept = {key: value for key, value in values.items() if key in known}
    kept["pv"] = tuple(kept.get("pv", ()))
    return ThinkResult(**kept)


def search_seconds(request: ThinkRequest) -> float:
    """How long *request*'s search may take from now: its limit's deadline for the side to move
    (the game clock's time left, with its grace), or the default bound of an unlimited search."""
    limit = request.limit()
    if limit is None:
        return DEFAULT_SEARCH_TIMEOUT
    parts = request.start_sfen.split()
    if len(parts) > 1 and parts[1] in ("b", "w"):
        black = (parts[1] == "b") == (len(request.moves) % 2 == 0)
        turns = [Color.BLACK if black else Color.WHITE]
    else:
        turns = [Color.BLACK, Color.WHITE]
    return max(limit.deadline(turn) or DEFAULT_SEARCH_TIMEOUT for turn in turns)


# -- the worker's side (runs in RQ's work horse) ----------------------------------------------------

#: Set by ``shogiban worker`` before it starts: the name its heartbeats carry.
WORKER_NAME = ""


def warm_up() -> None:
    """Load the engine and make one searcher per level in the worker, before it forks: every
    work horse inherits them (copy-on-write) instead of loading and allocating its own per job."""
    prepare_engines()


def job_replies(payload: dict[str, Any], what: str) -> tuple[Any, str, Callable[[dict[str, Any]], None]]:
    """For the RQ job running now: its Redis connection, its reply id, and how to push a message
    to the web process waiting for it (the reply list expires if nobody reads it)."""
    from rq import get_current_job

    job = get_current_job()
    if job is None:  # pragma: no cover - only RQ calls this
        raise RuntimeError(f"{what} runs in an RQ worker")
    connection = job.connection
    reply_id = str(payload.get("reply", job.id))
    reply = REPLY_PREFIX + reply_id

    def push(message: dict[str, Any]) -> None:
        with connection.pipeline() as pipe:
            pipe.rpush(reply, json.dumps(message))
            pipe.expire(reply, REPLY_TTL)
            pipe.execute()

    return connection, reply_id, push


def discarded(connection: Any) -> bool:
    """Whether the web side discarded the RQ job running now before it began: :func:`discard_job`
    finds a job still queued (and deletes it) in the moment between a worker taking it and
    marking it started, so the work horse asks before doing anything."""
    from rq import get_current_job

    job = get_current_job()
    if job is None or not connection.exists(DISCARDED_PREFIX + job.id):
        return False
    log.info("worker %s dropped job %s: discarded before it began", WORKER_NAME, job.id)
    return True


def run_think(payload: dict[str, Any]) -> dict[str, Any]:
    """Think one job (in RQ's forked work horse): say which worker took it, then push the result,
    or the error (marked ``input`` when the request itself is bad: never retried)."""

    from shogiban.children import die_with_parent

    die_with_parent()  # a horse never outlives its worker, even after kill -9
    connection, _, push = job_replies(payload, "run_think")
    if discarded(connection):
        return {"discarded": True}
    push({"started": WORKER_NAME, "pid": os.getpid()})
    log.info("worker %s thinking for game %s", WORKER_NAME, payload.get("game_id") or "-")
    started = time.monotonic()
    try:
        request = request_from_payload(payload)
        result = builtin_think(request)
    except ShogibanError as error:
        push({"error": str(error), "code": error.code, "input": True})
        raise
    except Exception as error:  # the engine failed (JobTimeoutException too): the worker lives on
        timed_out = type(error).__name__ == "JobTimeoutException"
        push({"error": f"{type(error).__name__}: {error}", "code": "engine_timeout" if timed_out else "engine_failed"})
        raise
    answer = result_dict(result)
    # Logged before the reply, so that whoever gets the reply finds the line.
    log.info("worker %s answered %s for game %s in %.3f s", WORKER_NAME, result.move, request.game_id or "-",
             time.monotonic() - started)
    push({"result": answer})
    return answer


def horse_killed(job: Any, retpid: int, ret_val: int, rusage: Any) -> None:
    """RQ's hook when a work horse dies without answering (a crash, a timeout kill): the web side
    hears it at once instead of at the job's deadline."""
    args: tuple[Any, ...] = tuple(getattr(job, "args", None) or ({},))
    reply = REPLY_PREFIX + str(args[0].get("reply", job.id) if isinstance(args[0], dict) else job.id)
    message = {"error": f"the engine process ended with status {ret_val}", "code": "engine_failed"}
    with job.connection.pipeline() as pipe:
        pipe.rpush(reply, json.dumps(message))
        pipe.expire(reply, REPLY_TTL)
        pipe.execute()


class Heartbeat:
    """A worker's heartbeat for each of its queues (:func:`workers_key`: a web process sends a
    job only to a queue that a live worker takes from), from a thread (the worker's main thread
    waits for its horse): it stops when the process dies, which is how the web side learns it."""

    def __init__(self, client: Any, name: str, queues: list[str], interval: float = HEARTBEAT_SECONDS) -> None:
        self.client = client
        self.name = name
        self.keys = [workers_key(queue) for queue in queues]
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="heartbeat", daemon=True)

    def start(self) -> None:
        for key in self.keys:
            self.client.zremrangebyscore(key, "-inf", time.time() - STALE_SECONDS)
        self._send()
        self._thread.start()

    def _send(self) -> None:
        with self.client.pipeline() as pipe:
            for key in self.keys:
                pipe.zadd(key, {self.name: time.time()})
            pipe.execute()

    def _beat(self) -> None:
        failing = False
        while not self._stop.wait(self.interval):
            try:
                self._send()
            except Exception as error:  # Redis away for a while: said once, RQ's own loop retries
                if not failing:
                    log.warning("heartbeat failed (Redis unreachable?): %s", error)
                failing = True
            else:
                if failing:
                    log.warning("heartbeat sent again")
                failing = False

    def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(Exception):
            for key in self.keys:
                self.client.zrem(key, self.name)


# -- the web side -----------------------------------------------------------------------------------

def discard_job(connection: Any, job_id: str) -> None:
    """Stop a running job and remove it from its queue and RQ's registries."""
    from rq.command import send_stop_job_command
    from rq.exceptions import InvalidJobOperation, NoSuchJobError
    from rq.job import Job, JobStatus

    try:
        # Marked first: a worker between taking the job and starting it reads the mark (discarded).
        connection.set(DISCARDED_PREFIX + job_id, 1, ex=FAILED_TTL)
        job = Job.fetch(job_id, connection=connection)
        if job.get_status() == JobStatus.STARTED:
            with contextlib.suppress(InvalidJobOperation):
                send_stop_job_command(connection, job_id)
        job.delete()
    except NoSuchJobError:
        pass
    except Exception as error:  # a job left behind expires with its registry: never an error to the game
        log.warning("could not discard job %s: %s", job_id, error)


class JobQueueClient:
    """What the web side of both job kinds shares: the Redis connections, the workers'
    heartbeats, waiting for a job's reply, and discarding a job.

    :param redis_url: ``redis://HOST:PORT/N``.
    :param worker_timeout: seconds without a heartbeat after which a worker is dead.
    :param default_queue: the queue :meth:`live_workers` asks about by default.
    """

    def __init__(self, redis_url: str, worker_timeout: float, default_queue: str) -> None:
        import redis
        import redis.asyncio

        self.worker_timeout = worker_timeout
        self.default_queue = default_queue
        self._async: Any = redis.asyncio.Redis.from_url(redis_url, socket_connect_timeout=2, socket_timeout=5)
        self._sync: Any = redis.Redis.from_url(redis_url, socket_connect_timeout=2, socket_timeout=5)

    async def live_workers(self, queue: str | None = None) -> list[str]:
        """Names of the workers taking jobs from *queue* whose heartbeat is recent."""
        key = workers_key(queue or self.default_queue)
        names = await self._async.zrangebyscore(key, time.time() - self.worker_timeout, "+inf")
        return [name.decode() if isinstance(name, bytes) else str(name) for name in names]

    async def _alive(self, name: str, queue: str) -> bool:
        beat = await self._async.zscore(workers_key(queue), name)
        return beat is not None and time.time() - float(beat) < self.worker_timeout

    async def _next_reply(
        self, reply: str, queue: str, worker: str | None, timeout: float, what: str = "job",
    ) -> tuple[str | None, dict[str, Any] | None]:
        """Wait up to *timeout* for the next message on *reply*: (the worker that took the job,
        the job's last message, or None while it runs).

        :raises WorkerLostError: the worker that took the job, or every worker while it waits,
            stopped its heartbeat.
        """
        item = await self._async.blpop([reply], timeout=timeout)
        if item is None:
            if worker is not None and not await self._alive(worker, queue):
                raise WorkerLostError(f"worker {worker} stopped its heartbeat")
            if worker is None and not await self.live_workers(queue):
                raise WorkerLostError(f"no worker is left to take the {what}")
            return worker, None
        message: dict[str, Any] = json.loads(item[1])
        if "started" in message:
            return str(message["started"]), None
        return worker, message

    def _discard(self, job_id: str) -> None:
        discard_job(self._sync, job_id)

    async def _close_connections(self) -> None:
        with contextlib.suppress(Exception):
            await self._async.aclose()
        self._sync.close()


def _failure(message: dict[str, Any]) -> EngineError:
    """The error a job's failure message (not a refused input) stands for."""
    if message.get("code") == "engine_timeout":
        return EngineTimeoutError(str(message["error"]))
    return EngineTerminatedError(str(message["error"]))


class QueuedEngines(JobQueueClient):
    """Think through the job queue when a worker is alive, else in-process (see the module
    docstring).

    :param local: the in-process engines (used while no worker is alive).
    :param redis_url: ``redis://HOST:PORT/N``.
    :param max_queued: jobs that may wait in one queue.
    :param worker_timeout: seconds without a heartbeat after which a worker is dead.
    """

    def __init__(self, local: Thinker, redis_url: str, *, max_queued: int = MAX_QUEUED,
                 worker_timeout: float = WORKER_TIMEOUT) -> None:
        from rq import Queue

        super().__init__(redis_url, worker_timeout, MOVES_QUEUE)
        self.local = local
        self.redis_url = redis_url
        self.max_queued = max_queued
        self._queues = {name: Queue(name, connection=self._sync) for name in QUEUES}
        self._cleanups: set[asyncio.Future[Any]] = set()
        self.queued_jobs = 0
        """Jobs this process sent to the queue (tests and the benchmark read it)."""

    async def think(self, request: ThinkRequest) -> ThinkResult:
        """A move (or hint) from a worker, or in-process when none is alive.

        :raises EngineError: the engine failed (a worker lost twice, a crash, no answer in time),
            or a hint was refused because the queue is full (``code`` ``"busy"``).
        """
        import redis

        queue = HINTS_QUEUE if request.hint else MOVES_QUEUE
        for attempt in (1, 2):
            try:
                if not await self.live_workers(queue):
                    return await self.local.think(request)
                if await self._async.llen(self._queues[queue].key) >= self.max_queued:
                    if request.hint:
                        raise EngineBusyError("the engines are busy: please try again in a moment")
                    return await self.local.think(request)  # a computer move never waits for room
                return await self._run(request, queue)
            except WorkerLostError as lost:
                if attempt == 2:
                    raise EngineTerminatedError(f"the engine worker was lost twice ({lost})") from lost
                log.warning("%s: thinking game %s again", lost, request.game_id or "-")
            except (redis.RedisError, OSError) as error:
                log.warning("the job queue is unavailable (%s): thinking in-process", error)
                return await self.local.think(request)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _run(self, request: ThinkRequest, queue: str) -> ThinkResult:
        seconds = search_seconds(request)
        deadline = time.time() + seconds + QUEUE_MARGIN
        reply_id = secrets.token_hex(12)
        payload = request_payload(request) | {"reply": reply_id}
        reply = REPLY_PREFIX + reply_id
        worker: str | None = None
        done = False
        try:
            # The job's id is its reply's: a job enqueued as its request is cancelled is discarded too.
            await asyncio.to_thread(
                self._queues[queue].enqueue_call, run_think, args=(payload,), job_id=reply_id,
                timeout=math.ceil(seconds + QUEUE_MARGIN), result_ttl=0, failure_ttl=FAILED_TTL,
                description=f"think {request.game_id or '-'} ply {len(request.moves)}",
            )
            self.queued_jobs += 1
            while True:
                left = deadline - time.time()
                if left <= 0:
                    raise EngineTimeoutError(f"no answer from the job queue within {seconds + QUEUE_MARGIN:.1f} s")
                worker, message = await self._next_reply(reply, queue, worker, min(POLL_SECONDS, left))
                if message is None:
                    continue
                done = True
                if "result" in message:
                    return result_from_dict(message["result"])
                if message.get("input"):
                    raise EngineError(f"the job was refused: {message['error']}")
                raise _failure(message)
        finally:
            if not done:  # lost, timed out or cancelled: it must not run on, nor stay listed
                self._forget(asyncio.to_thread(self._discard, reply_id))
            self._forget(self._delete(reply))

    async def _delete(self, key: str) -> None:
        try:
            await self._async.delete(key)
        except Exception as error:  # Redis gone: the key expires by itself (REPLY_TTL)
            log.debug("could not delete %s: %s", key, error)

    def _forget(self, work: Any) -> None:
        """Run a clean-up in the background, kept until it ends (the loop holds only weak
        references) or :meth:`close` waits for it."""
        task = asyncio.ensure_future(work)
        self._cleanups.add(task)
        task.add_done_callback(self._cleanups.discard)

    async def release(self, game_id: str) -> None:
        """Nothing is held per game in the queue; the local engines free theirs."""
        await self.local.release(game_id)

    async def close(self) -> None:
        """Close the connections and the local engines."""
        try:
            if self._cleanups:
                await asyncio.wait(set(self._cleanups), timeout=5)
            await self.local.close()
        finally:
            await self._close_connections()


def queued_engines(local: Thinker, redis_url: str) -> Thinker:
    """*local* behind the job queue at *redis_url*, or *local* alone when RQ is not installed."""
    try:
        import rq  # noqa: F401
    except ImportError:
        log.warning("RQ is not installed (pip install 'shogiban[scale]'): engines think in-process only")
        return local
    return QueuedEngines(local, redis_url)


# -- whole-game analysis on the `analysis` queue ----------------------------------------------------
#
# The web side's AnalysisService (shogiban.web.game_analysis) runs an analysis here when a live
# worker takes the analysis queue.  The job runs the same `run_analysis` as the local worker
# process; only its two shared slots (progress, cancel) are Redis hash fields instead of shared
# memory.  Its replies (started, then result or error) use the reply list of `run_think`.

#: A running analysis' hash (+ its reply id): ``done`` and ``total`` from the worker, ``cancel``
#: from the web side.
ANALYSIS_PREFIX = "shogiban:analysis:"
#: Seconds one position may take when the limit has no time of its own (a depth, nodes).
ANALYSIS_POSITION_SECONDS = 60.0
#: Seconds an analysis job may take at most, however long the game.
ANALYSIS_MAX_SECONDS = 3600.0
#: Seconds the worker reuses its last look at the cancel field (the watcher asks 20 times a second).
CANCEL_LOOK_SECONDS = 0.2


def analysis_seconds(limit: Limit, positions: int) -> float:
    """The job timeout of an analysis of *positions* under *limit*: each position's deadline,
    twice (a candidate mistake is searched again, deeper), capped at :data:`ANALYSIS_MAX_SECONDS`."""
    per_position = limit.deadline(Color.BLACK, default=ANALYSIS_POSITION_SECONDS) or ANALYSIS_POSITION_SECONDS
    return min(ANALYSIS_MAX_SECONDS, QUEUE_MARGIN + 2 * positions * per_position)


def analysis_payload(job: AnalysisJob) -> dict[str, Any]:
    """An :class:`~shogiban.web.game_analysis.AnalysisJob` as JSON values (durations in seconds)."""
    from datetime import timedelta

    from shogiban.engines.limit import to_seconds

    limit = {f.name: getattr(job.limit, f.name) for f in fields(job.limit)}
    limit = {name: to_seconds(value) if isinstance(value, timedelta) else value for name, value in limit.items()}
    return {"job_id": job.job_id, "game_id": job.game_id, "start_sfen": job.start_sfen, "moves": list(job.moves),
            "limit": limit, "level": job.level, "max_positions": job.max_positions}


def analysis_job_from_payload(payload: dict[str, Any]) -> AnalysisJob:
    """The :class:`~shogiban.web.game_analysis.AnalysisJob` sent as *payload*.

    :raises ShogibanError: ``invalid`` when a field is missing or of the wrong kind.
    """
    from shogiban.engines.limit import Limit
    from shogiban.web.game_analysis import AnalysisJob

    try:
        return AnalysisJob(int(payload["job_id"]), str(payload["game_id"]), str(payload["start_sfen"]),
                           tuple(str(move) for move in payload["moves"]), Limit(**payload["limit"]),
                           int(payload["level"]), int(payload["max_positions"]))
    except (KeyError, TypeError, ValueError) as error:
        raise ShogibanError(f"a malformed analysis job: {error!r}") from error


class RedisProgressSlot:
    """The worker's progress slot (``slot[:] = [job id, done, total]``, like the shared array of
    the local worker process), written to the job's hash."""

    def __init__(self, client: Any, key: str) -> None:
        self.client = client
        self.key = key

    def __setitem__(self, index: Any, values: list[int]) -> None:
        _job_id, done, total = values
        with self.client.pipeline() as pipe:
            pipe.hset(self.key, mapping={"done": done, "total": total})
            pipe.expire(self.key, REPLY_TTL)
            pipe.execute()


class RedisCancelSlot:
    """The worker's cancel slot (``slot[0]`` is the job id to stop, like the shared array of the
    local worker process), read from the job's hash at most every :data:`CANCEL_LOOK_SECONDS`."""

    def __init__(self, client: Any, key: str, job_id: int) -> None:
        self.client = client
        self.key = key
        self.job_id = job_id
        self._cancelled = False
        self._looked = -math.inf

    def __getitem__(self, index: int) -> int:
        now = time.monotonic()
        if not self._cancelled and now - self._looked >= CANCEL_LOOK_SECONDS:
            self._looked = now
            try:
                self._cancelled = bool(self.client.hget(self.key, "cancel"))
            except Exception as error:  # Redis away: the analysis goes on (its timeout still bounds it)
                log.warning("could not look at %s: %s", self.key, error)
        return self.job_id if self._cancelled else 0


def run_analysis_job(payload: dict[str, Any]) -> dict[str, Any]:
    """Analyse one game (in RQ's forked work horse) with the local path's ``run_analysis``: say
    which worker took it, then push the outcome, or the error (marked ``input`` when the game
    itself is refused: never retried)."""
    from dataclasses import asdict

    from shogiban.web import game_analysis

    connection, reply_id, push = job_replies(payload, "run_analysis_job")
    if discarded(connection):
        return {"discarded": True}
    push({"started": WORKER_NAME, "pid": os.getpid()})
    log.info("worker %s analysing game %s", WORKER_NAME, payload.get("game_id") or "-")
    started = time.monotonic()
    try:
        analysis = analysis_job_from_payload(payload)
        key = ANALYSIS_PREFIX + reply_id
        # The same initializer as the local worker process: dies with its worker, at nice 19.
        game_analysis.init_worker(RedisProgressSlot(connection, key), RedisCancelSlot(connection, key, analysis.job_id))
        outcome = game_analysis.run_analysis(analysis)
    except ShogibanError as error:  # the game itself (illegal moves, too long): retrying cannot help
        push({"error": str(error), "code": error.code, "input": True})
        raise
    except Exception as error:
        timed_out = type(error).__name__ == "JobTimeoutException"
        push({"error": f"{type(error).__name__}: {error}", "code": "engine_timeout" if timed_out else "engine_failed"})
        raise
    log.info("worker %s analysed game %s in %.3f s%s", WORKER_NAME, analysis.game_id, time.monotonic() - started,
             " (cancelled)" if outcome.cancelled else "")
    push({"result": asdict(outcome)})
    return {"cancelled": outcome.cancelled}


class AnalysisRefusedError(EngineError):
    """The worker refused the game (its code is the worker's: ``illegal_move``, ``too_large``...)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class QueuedAnalyses(JobQueueClient):
    """The web side of analyses on the ``analysis`` queue: :class:`AnalysisService`'s remote
    runner.  :meth:`analyse` answers None when no worker takes the queue (or Redis does not
    answer): the service then runs the analysis in its own process, as without Redis.

    :param redis_url: ``redis://HOST:PORT/N``.
    :param worker_timeout: seconds without a heartbeat after which a worker is dead.
    """

    def __init__(self, redis_url: str, *, worker_timeout: float = WORKER_TIMEOUT) -> None:
        from rq import Queue

        super().__init__(redis_url, worker_timeout, ANALYSIS_QUEUE)
        self._queue = Queue(ANALYSIS_QUEUE, connection=self._sync)
        self.queued_jobs = 0
        """Analyses this process sent to the queue (tests read it)."""

    async def analyse(self, job: AnalysisJob, progress: Callable[[int, int], None], cancelled: Callable[[], bool],
                      poll_seconds: float) -> AnalysisOutcome | None:
        """The outcome of *job* (an ``AnalysisJob``) from a worker, or None when none is alive.

        :param progress: called with (done, total) as the worker reports them.
        :param cancelled: says whether the analysis was cancelled (then the worker is told to stop).
        :raises EngineError: the worker failed it (``code`` says why: ``worker_lost`` when lost
            twice, the game's own code when it was refused).
        """
        import redis

        for attempt in (1, 2):
            try:
                if not await self.live_workers():
                    return None
                return await self._run(job, progress, cancelled, poll_seconds)
            except WorkerLostError as lost:
                if attempt == 2:
                    raise WorkerLostError(f"the analysis worker was lost twice ({lost})") from lost
                log.warning("%s: analysing game %s again", lost, job.game_id)
            except (redis.RedisError, OSError) as error:
                log.warning("the job queue is unavailable (%s): analysing in-process", error)
                return None
        raise AssertionError("unreachable")  # pragma: no cover

    async def _run(self, job: AnalysisJob, progress: Callable[[int, int], None], cancelled: Callable[[], bool],
                   poll_seconds: float) -> AnalysisOutcome:
        from shogiban.web.game_analysis import AnalysisOutcome

        seconds = analysis_seconds(job.limit, len(job.moves) + 1)
        deadline = time.time() + seconds + QUEUE_MARGIN
        reply_id = secrets.token_hex(12)
        reply, key = REPLY_PREFIX + reply_id, ANALYSIS_PREFIX + reply_id
        worker: str | None = None
        told_to_stop = done = False
        try:
            await asyncio.to_thread(
                self._queue.enqueue_call, run_analysis_job, args=(analysis_payload(job) | {"reply": reply_id},),
                job_id=reply_id, timeout=math.ceil(seconds), result_ttl=0, failure_ttl=FAILED_TTL,
                description=f"analyse {job.game_id}",
            )
            self.queued_jobs += 1
            while True:
                if cancelled() and worker is None:  # still queued: it leaves the queue at once
                    return AnalysisOutcome("", "", {}, cancelled=True)
                if cancelled() and not told_to_stop:
                    told_to_stop = True
                    await self._async.hset(key, "cancel", 1)
                    await self._async.expire(key, REPLY_TTL)
                left = deadline - time.time()
                if left <= 0:
                    raise EngineTimeoutError(f"no analysis from the job queue within {seconds + QUEUE_MARGIN:.0f} s")
                lost: WorkerLostError | None = None
                try:
                    worker, message = await self._next_reply(reply, ANALYSIS_QUEUE, worker, min(poll_seconds, left),
                                                            "analysis")
                except WorkerLostError as error:
                    lost, message = error, None
                # The progress the worker reported meanwhile, even from a worker just found lost.
                reported = await self._async.hmget(key, "done", "total")
                if reported[0] is not None and reported[1] is not None:
                    progress(int(reported[0]), int(reported[1]))
                if lost is not None:
                    raise lost
                if message is None:
                    continue
                done = True
                if "result" in message:
                    return AnalysisOutcome(**message["result"])
                if message.get("input"):
                    raise AnalysisRefusedError(f"the game was refused: {message['error']}", str(message["code"]))
                raise _failure(message)
        finally:
            if not done:  # lost, timed out or the service closing: it must not run on, nor stay listed
                await asyncio.to_thread(self._discard, reply_id)
            with contextlib.suppress(Exception):  # Redis gone: the keys expire by themselves
                await self._async.delete(reply, key)

    async def close(self) -> None:
        """Close the connections."""
        await self._close_connections()


def queued_analyses(redis_url: str) -> QueuedAnalyses | None:
    """The analysis queue at *redis_url*, or None when RQ is not installed."""
    try:
        import rq  # noqa: F401
    except ImportError:
        return None
    return QueuedAnalyses(redis_url)
