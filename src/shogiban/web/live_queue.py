"""Live analysis on the engine workers: the ``live`` queue of :mod:`shogiban.web.job_queue`.

With ``--redis`` and a live ``shogiban worker`` taking the ``live`` queue, a viewer's search
(:mod:`shogiban.web.live_analysis`) runs there instead of in an engine process of the web
host: :class:`QueuedLive` is one more :class:`~shogiban.web.live_analysis.LiveSearches`.

* The job (:func:`run_live_job`, in RQ's forked work horse) searches with the built-in engine
  and pushes the lines so far onto the job's reply list at most every
  :data:`~shogiban.web.live_analysis.SEND_EVERY` seconds, then ``done``; the web side reads the
  list and yields the lines.  Stopping (the viewer stops, asks for another position or leaves)
  sets the job's ``cancel`` field, which the horse reads a few times a second; a job still
  queued is discarded.
* Priority: the ``live`` queue comes after computer moves and hints (a person is waiting for
  those) and before whole-game analysis (nobody watches it move by move).
* No worker alive, Redis away: the search runs in this host's engine processes, as without
  Redis.  A worker lost mid-search ends the search with ``worker_lost``: the viewer asks again.
* Bounds: :attr:`~shogiban.web.live_analysis.LiveSettings.searches` searches at once per web
  process, and at most :data:`~shogiban.web.job_queue.MAX_QUEUED` waiting in the queue (``busy``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import time
from collections.abc import AsyncGenerator, Sequence
from typing import Any

from shogiban.board import Board
from shogiban.engines.limit import Limit
from shogiban.engines.results import InfoDict
from shogiban.engines.score import PovScore, Score
from shogiban.errors import EngineError, EngineTimeoutError, ShogibanError
from shogiban.move import Move
from shogiban.web import job_queue
from shogiban.web.job_queue import (
    FAILED_TTL,
    LIVE_QUEUE,
    MAX_QUEUED,
    QUEUE_MARGIN,
    REPLY_PREFIX,
    REPLY_TTL,
    WORKER_TIMEOUT,
    JobQueueClient,
)
from shogiban.web.live_analysis import SEND_EVERY, LiveBusyError, LiveSearches

log = logging.getLogger(__name__)

#: A running live search's hash (+ its reply id): ``cancel`` from the web side.
LIVE_PREFIX = "shogiban:live:"
#: Seconds the horse reuses its last look at the cancel field.
CANCEL_LOOK_SECONDS = 0.2


# -- what crosses the queue -------------------------------------------------------------------------

def info_values(info: InfoDict) -> dict[str, Any]:
    """One line of a search as JSON values (its score from the side to move)."""
    score = info["score"].relative
    return {"multipv": info.get("multipv", 1), "depth": info.get("depth", 0), "nodes": info.get("nodes", 0),
            "cp": score.cp, "mate": score.mate, "winning": score.winning,
            "pv": [move.usi() for move in info.get("pv", [])]}


def info_from_values(values: dict[str, Any], board: Board) -> InfoDict:
    """The line sent as *values*, for the searched *board*.

    :raises ShogibanError: for values that are not a line (a worker of another version).
    """
    try:
        score = Score(cp=values["cp"]) if values["cp"] is not None else Score(
            mate=values["mate"], winning=values["winning"])
        return {"multipv": int(values["multipv"]), "depth": int(values["depth"]), "nodes": int(values["nodes"]),
                "score": PovScore(score, board.turn), "pv": [Move.from_usi(str(m)) for m in values["pv"]]}
    except (KeyError, TypeError, ValueError) as error:
        raise ShogibanError(f"a malformed line from the worker: {error!r}") from error


# -- the worker's side (runs in RQ's work horse) ----------------------------------------------------

def run_live_job(payload: dict[str, Any]) -> dict[str, Any]:
    """Search one position (in RQ's forked work horse) until its time is up or the web side
    cancels it, pushing the lines so far onto the reply list (see the module docstring)."""
    from shogiban.children import die_with_parent

    die_with_parent()
    connection, reply_id, push = job_queue.job_replies(payload, "run_live_job")
    if job_queue.discarded(connection):
        return {"discarded": True}
    push({"started": job_queue.WORKER_NAME, "pid": os.getpid()})
    try:
        board = Board(str(payload["sfen"])) if payload.get("sfen") else Board()
        for usi in payload.get("moves", []):
            board.push(board.parse_usi(str(usi)))
        lines, seconds = int(payload["lines"]), float(payload["seconds"])
        searchmoves = [board.parse_usi(str(usi)) for usi in payload.get("searchmoves", [])]
    except (ShogibanError, KeyError, TypeError, ValueError) as error:
        push({"error": str(error), "code": getattr(error, "code", "invalid"), "input": True})
        raise
    key = LIVE_PREFIX + reply_id
    log.info("worker %s searching %d lines live", job_queue.WORKER_NAME, lines)
    started = time.monotonic()
    try:
        pushed = asyncio.run(_search(board, lines, seconds, searchmoves, push,
                                     lambda: bool(connection.hget(key, "cancel"))))
    except Exception as error:
        push({"error": f"{type(error).__name__}: {error}", "code": "engine_failed"})
        raise
    log.info("worker %s ended a live search after %.1f s (%d messages)", job_queue.WORKER_NAME,
             time.monotonic() - started, pushed)
    push({"done": True})
    return {"messages": pushed}


async def _search(board: Board, lines: int, seconds: float, searchmoves: list[Move], push: Any,
                  cancelled: Any) -> int:
    from shogiban.engines.builtin import BuiltinEngine

    engine = BuiltinEngine(level=8)
    pushed = 0
    try:
        running = await engine.analysis(board, Limit(time=seconds), multipv=lines, searchmoves=searchmoves or None)
        latest: dict[int, InfoDict] = {}
        unsent = False
        last_push = last_look = -math.inf
        async for info in running:
            if "pv" in info and "score" in info and info["pv"]:
                latest[info.get("multipv", 1)] = info
                unsent = True
            now = time.monotonic()
            if now - last_look >= CANCEL_LOOK_SECONDS:
                last_look = now
                if cancelled():
                    running.stop()
            if unsent and now - last_push >= SEND_EVERY:
                push({"lines": [info_values(latest[rank]) for rank in sorted(latest)]})
                pushed += 1
                last_push, unsent = now, False
        if unsent:
            push({"lines": [info_values(latest[rank]) for rank in sorted(latest)]})
            pushed += 1
    finally:
        await engine.quit()
    return pushed


# -- the web side -----------------------------------------------------------------------------------

class QueuedLive(JobQueueClient):
    """Live searches on the workers when one takes the ``live`` queue, else with *local* (see
    the module docstring).

    :param local: this host's engine processes (used while no worker is alive).
    :param redis_url: ``redis://HOST:PORT/N``.
    :param searches: searches at once from this web process.
    """

    def __init__(self, local: LiveSearches, redis_url: str, *, searches: int = 2, max_queued: int = MAX_QUEUED,
                 worker_timeout: float = WORKER_TIMEOUT) -> None:
        from rq import Queue

        super().__init__(redis_url, worker_timeout, LIVE_QUEUE)
        self.local = local
        self.name = local.name
        self.searches = searches
        self.max_queued = max_queued
        self._queue = Queue(LIVE_QUEUE, connection=self._sync)
        self._busy = 0
        self.queued_jobs = 0
        """Searches this process sent to the queue (tests read it)."""

    async def search(self, board: Board, lines: int, seconds: float,
                     searchmoves: Sequence[Move] = ()) -> AsyncGenerator[list[InfoDict], None]:
        import redis

        try:
            remote = bool(await self.live_workers()) and \
                await self._async.llen(self._queue.key) < self.max_queued
        except (redis.RedisError, OSError) as error:
            log.warning("the job queue is unavailable (%s): searching in-process", error)
            remote = False
        if not remote:
            async for infos in self.local.search(board, lines, seconds, searchmoves):
                yield infos
            return
        if self._busy >= self.searches:
            raise LiveBusyError(f"the server runs {self.searches} live analyses already: try again in a moment")
        self._busy += 1
        try:
            async for infos in self._remote(board, lines, seconds, searchmoves):
                yield infos
        finally:
            self._busy -= 1

    async def _remote(self, board: Board, lines: int, seconds: float,
                      searchmoves: Sequence[Move]) -> AsyncGenerator[list[InfoDict], None]:
        reply_id = secrets.token_hex(12)
        reply, key = REPLY_PREFIX + reply_id, LIVE_PREFIX + reply_id
        payload = {"reply": reply_id, "sfen": board.sfen(), "moves": [], "lines": lines, "seconds": seconds,
                   "searchmoves": [move.usi() for move in searchmoves]}
        deadline = time.time() + seconds + 2 * QUEUE_MARGIN
        worker: str | None = None
        done = False
        try:
            await asyncio.to_thread(
                self._queue.enqueue_call, run_live_job, args=(payload,), job_id=reply_id,
                timeout=math.ceil(seconds + QUEUE_MARGIN), result_ttl=0, failure_ttl=FAILED_TTL,
                description="live analysis",
            )
            self.queued_jobs += 1
            while True:
                left = deadline - time.time()
                if left <= 0:
                    raise EngineTimeoutError(f"no live analysis from the job queue within {seconds:.0f} s")
                worker, message = await self._next_reply(reply, LIVE_QUEUE, worker, min(0.25, left), "live analysis")
                if message is None:
                    continue
                if "lines" in message:
                    yield [info_from_values(values, board) for values in message["lines"]]
                    continue
                done = True
                if message.get("done"):
                    return
                raise EngineError(f"the live analysis failed on the worker: {message.get('error')}")
        finally:
            if not done:  # stopped by the viewer, or timed out: the horse stops, a queued job goes
                with contextlib.suppress(Exception):
                    await self._async.hset(key, "cancel", 1)
                    await self._async.expire(key, REPLY_TTL)
                if worker is None:
                    await asyncio.to_thread(self._discard, reply_id)
            with contextlib.suppress(Exception):
                await self._async.delete(reply)

    async def close(self) -> None:
        """Close the connections and the local engines."""
        try:
            await self.local.close()
        finally:
            await self._close_connections()


def queued_live(local: LiveSearches, redis_url: str, searches: int) -> LiveSearches:
    """*local* behind the ``live`` queue at *redis_url*, or *local* alone when RQ is not installed."""
    try:
        import rq  # noqa: F401
    except ImportError:
        return local
    return QueuedLive(local, redis_url, searches=searches)
