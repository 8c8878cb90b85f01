"""Record work in child processes: reading uploads, building the viewer's tree, and writing
downloads, away from the event loop.

Uploads are untrusted and a record reader may be slow or greedy on them (a pathological KIF took
the reader 74 s and 530 MB), so none of that runs in the server's process.  :class:`ParsePool`
keeps a few worker processes (``spawn`` start method, so they hold nothing of the server; each
dies with the server, see :func:`shogiban.children.die_with_parent`; address space capped with
``RLIMIT_AS`` where the platform has it).  Each job has a deadline: a worker that overruns it is
killed and replaced, and the request is answered ``too_slow``; a worker out of memory answers
``too_large`` and is replaced.  When every worker is busy a few requests wait; beyond that the
answer is a 503 ``busy``.

A worker answers with the finished HTTP body (:class:`ParseReply`), so the event loop only
forwards bytes.

>>> import asyncio, json
>>> async def demo() -> ParseReply:
...     pool = ParsePool(size=1)
...     try:
...         return await pool.run(ParseJob("tree", b"position startpos moves 7g7f"))
...     finally:
...         await pool.close()
>>> reply = asyncio.run(demo())
>>> reply.status, json.loads(reply.body)["nodes"][1]["label"]
(200, '▲７六歩')
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Literal

from shogiban.children import die_with_parent
from shogiban.errors import ShogibanError
from shogiban.web.records import (
    RecordError,
    RecordLimits,
    RoomRecord,
    export_game,
    export_record,
    game_tree,
    read_upload,
)
from shogiban.web.schema import RECORD_TEXT, RequestError, encode_json, shorten

log = logging.getLogger(__name__)

#: Worker processes (each reads one record at a time).
DEFAULT_WORKERS = 2
#: Seconds a job may take before its worker is killed.
DEFAULT_DEADLINE = 10.0
#: Address space of a worker, bytes (the interpreter with shogiban loaded takes about 35 MB).
DEFAULT_MEMORY = 512 * 1024 * 1024
#: Requests that may wait for a free worker (more are answered ``busy``).
DEFAULT_QUEUE = 8
#: Seconds a new worker may take to start (import shogiban).
START_DEADLINE = 30.0
_READY = "ready"

JobKind = Literal["tree", "export", "room"]


@dataclass(frozen=True, slots=True)
class ParseJob:
    """One piece of record work (picklable: it crosses into a worker)."""

    kind: JobKind
    """``tree`` (the viewer's JSON of an upload), ``export`` (an upload converted to *fmt*) or
    ``room`` (a room's record in *fmt*)."""
    data: bytes = b""
    """The upload, as it came."""
    is_json: bool = False
    """Whether *data* is ``{"text": ...}`` JSON rather than the record itself."""
    fmt: str = "kif"
    """The format to write."""
    room: RoomRecord | None = None
    """The room's record, for ``room`` jobs."""
    limits: RecordLimits = field(default_factory=RecordLimits)
    """How large the record may be."""


@dataclass(frozen=True, slots=True)
class ParseReply:
    """A finished HTTP answer."""

    status: int
    body: bytes
    media_type: str = "application/json"
    filename: str | None = None
    """For downloads: the file name to offer."""


def error_reply(status: int, code: str, message: str) -> ParseReply:
    """The usual JSON error as a reply."""
    return ParseReply(status, encode_json({"type": "error", "code": code, "message": message}).encode("utf-8"))


def upload_bytes(job: ParseJob) -> bytes:
    """The record's bytes: the upload itself, or the ``text`` of its JSON form encoded as UTF-8
    (bytes: the reader must never see a string it could take for a file name).

    :raises RequestError: for JSON that is not ``{"text": "<the record>"}``.
    """
    if not job.is_json:
        return job.data
    text: str = RECORD_TEXT.decode(job.data)["text"]
    return text.encode("utf-8", "replace")


def run_job(job: ParseJob) -> ParseReply:
    """Do *job* (in a worker process; a module-level function so that workers can import it)."""
    try:
        if job.kind == "room":
            if job.room is None:
                raise RecordError("no record given")
            download = export_record(job.room, job.fmt)
            return ParseReply(200, download.content, download.media_type, download.filename)
        game = read_upload(upload_bytes(job), limits=job.limits)
        if job.kind == "tree":
            tree = game_tree(game, max_nodes=job.limits.max_nodes)
            return ParseReply(200, encode_json(tree).encode("utf-8"))
        download = export_game(game, job.fmt, "record")
        return ParseReply(200, download.content, download.media_type, download.filename)
    except RequestError as error:
        return error_reply(error.status, error.code, str(error))
    except ShogibanError as error:
        return error_reply(int(getattr(error, "status", 400)), str(getattr(error, "code", "bad_record")),
                           shorten(str(error)))
    except RecursionError:
        return error_reply(413, "too_large", "record too large: nested too deeply to read")
    except MemoryError:
        raise  # the worker answers, then starts afresh (see _serve)
    except Exception as error:  # the reader is untrusted code on untrusted input: report, never crash
        log.warning("reading a record failed: %s: %s", type(error).__name__, shorten(str(error)))
        return error_reply(422, "bad_record", f"cannot read the record ({type(error).__name__})")


#: What a worker does with a job: :func:`run_job` for records; other heavy work (the editor's
#: solver) runs in a pool of its own with its own handler and picklable job.
Handler = Callable[[Any], ParseReply]


def _limit_memory(limit: int | None) -> None:
    if not limit:
        return
    try:
        import resource
    except ImportError:  # not on Windows: the deadline still applies
        return
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _serve(connection: Connection, handler: Handler, memory: int | None) -> None:
    """A worker's life: do jobs until told to stop (None) or the server goes away."""
    die_with_parent()
    _limit_memory(memory)
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(5)  # reading records yields to the server's own work
    connection.send(_READY)
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            reply = handler(job)
        except MemoryError:
            reply = error_reply(413, "too_large", "record too large: reading it needs too much memory")
            connection.send(reply)
            return  # start afresh: the heap may be fragmented
        connection.send(reply)


class _Worker:
    """One worker process and its end of the pipe."""

    def __init__(self, context: Any, handler: Handler, memory: int | None) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, handler, memory), name="shogiban-parse",
                                       daemon=True)
        self.process.start()
        child.close()
        try:
            ready = self.connection.poll(START_DEADLINE) and self.connection.recv() == _READY
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.kill()
            raise OSError("a record worker did not start")

    @property
    def alive(self) -> bool:
        return bool(self.process.is_alive())

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.process.kill()
        self.process.join(5)
        with contextlib.suppress(OSError):
            self.connection.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.connection.send(None)
        self.process.join(2)
        if self.process.is_alive():
            self.kill()
        with contextlib.suppress(OSError):
            self.connection.close()


class ParsePool:
    """Worker processes for record work; see the module docstring.

    :param size: worker processes (started on first use).
    :param handler: what a worker does with a job (a module-level function; tests inject one).
    :param deadline: seconds a job may take.
    :param memory: a worker's address space, bytes (None: no cap).
    :param queue: requests that may wait for a worker.
    :param busy: the answer when too many wait.
    """

    def __init__(
        self, size: int = DEFAULT_WORKERS, *, handler: Handler = run_job, deadline: float = DEFAULT_DEADLINE,
        memory: int | None = DEFAULT_MEMORY, queue: int = DEFAULT_QUEUE,
        busy: str = "the server is busy reading other records: please try again",
    ) -> None:
        if size < 1:
            raise ValueError(f"a parse pool needs at least one worker, not {size}")
        self.size = size
        self.handler = handler
        self.deadline = deadline
        self.memory = memory
        self.queue = queue
        self.busy = busy
        self._context = multiprocessing.get_context("spawn")
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._slots: asyncio.Semaphore | None = None
        self._waiting = 0
        self._closed = False
        self._threads = ThreadPoolExecutor(max_workers=size, thread_name_prefix="shogiban-parse")
        self.killed = 0
        """Workers killed for overrunning their deadline (for tests and logs)."""

    def worker_pids(self) -> list[int]:
        """The pids of the live workers."""
        with self._lock:
            return [w.process.pid for w in self._all if w.process.pid is not None and w.alive]

    async def run(self, job: Any) -> ParseReply:
        """Do *job* in a worker and return its answer (errors included: this never raises for
        the job's sake)."""
        if self._closed:
            return error_reply(503, "busy", "the server is shutting down")
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        if self._slots.locked() and self._waiting >= self.queue:
            return error_reply(503, "busy", self.busy)
        self._waiting += 1
        try:
            await asyncio.wait_for(self._slots.acquire(), timeout=self.deadline)
        except TimeoutError:
            return error_reply(503, "busy", self.busy)
        finally:
            self._waiting -= 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._threads, self._call, job)
        finally:
            self._slots.release()

    def _take(self) -> _Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.alive:
                    return worker
                self._all.discard(worker)
        worker = _Worker(self._context, self.handler, self.memory)
        with self._lock:
            self._all.add(worker)
        return worker

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            if self._closed or not worker.alive:
                self._all.discard(worker)
                closing = True
            else:
                self._idle.append(worker)
                closing = False
        if closing:
            worker.stop()

    def _discard(self, worker: _Worker) -> None:
        worker.kill()
        with self._lock:
            self._all.discard(worker)

    def _call(self, job: Any) -> ParseReply:
        """In a pool thread: hand *job* to a worker and wait for its answer until the deadline."""
        try:
            worker = self._take()
        except OSError as error:
            log.error("cannot start a record worker: %s", error)
            return error_reply(503, "busy", "the server cannot read records right now: please try again")
        try:
            worker.connection.send(job)
            if not worker.connection.poll(self.deadline):
                self.killed += 1
                log.warning("a record took more than %.0f s to read: its worker was stopped", self.deadline)
                self._discard(worker)
                return error_reply(422, "too_slow", f"reading this record took too long (over {self.deadline:g} s)")
            reply: ParseReply = worker.connection.recv()
        except (EOFError, OSError) as error:
            self._discard(worker)
            if self._closed:
                return error_reply(503, "busy", "the server is shutting down")
            # The worker died on the job: out of memory beyond what Python could report, or a crash.
            log.warning("a record worker died reading a record: %s", error)
            return error_reply(413, "too_large", "record too large: reading it needs too much memory")
        self._give_back(worker)
        return reply

    async def close(self) -> None:
        """Stop every worker (a job still running is killed)."""
        self._closed = True
        with self._lock:
            idle, busy = list(self._idle), [w for w in self._all if w not in self._idle]
            self._all, self._idle = set(), []
        loop = asyncio.get_running_loop()
        for worker in busy:
            await loop.run_in_executor(None, worker.kill)
        for worker in idle:
            await loop.run_in_executor(None, worker.stop)
        self._threads.shutdown(wait=False, cancel_futures=True)
