"""A running analysis, the same for every engine: an async iterator over :class:`InfoDict` updates
that its caller stops, over a bounded queue (:class:`InfoQueue`).

An engine may report as fast as it likes for as long as it likes: a reader that lags behind sees
the newest state, and memory stays bounded.
"""

from __future__ import annotations

import abc
import asyncio
import collections
import contextlib
from collections.abc import AsyncIterator

from shogiban.engines.results import InfoDict, PlayResult
from shogiban.errors import EngineError

MAX_QUEUED_INFOS = 1024
"""``info`` dicts an analysis keeps for a reader that lags behind; past this only the latest of
each principal variation is kept."""


class InfoQueue:
    """The ``info`` dicts of an analysis waiting for their reader, bounded.

    Up to :data:`MAX_QUEUED_INFOS` wait in order; past that the queue keeps only the latest
    info of each principal variation (and the latest ``string``), so a reader that lags behind
    a flooding engine sees the newest state and memory stays bounded.
    """

    def __init__(self, limit: int = MAX_QUEUED_INFOS) -> None:
        self.limit = limit
        self._items: collections.deque[InfoDict] = collections.deque()
        self._closed = False
        self._changed = asyncio.Event()

    def put(self, info: InfoDict) -> None:
        """Add *info* (dropping older ones if the reader lags)."""
        if self._closed:
            return
        self._items.append(info)
        if len(self._items) > self.limit:
            self._compact()
        self._changed.set()

    def _compact(self) -> None:
        latest: dict[tuple[int, bool], InfoDict] = {}
        for item in self._items:
            key = (item.get("multipv", 1), "string" in item)
            latest.pop(key, None)  # re-inserted last: the order of the latest appearance
            latest[key] = item
        kept = list(latest.values())[-(self.limit // 2) :]
        self._items = collections.deque(kept)

    def close(self) -> None:
        """No more infos: the reader gets None once the queue is empty."""
        self._closed = True
        self._changed.set()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def empty(self) -> bool:
        """Whether nothing waits to be read."""
        return not self._items

    def __len__(self) -> int:
        return len(self._items)

    async def get(self) -> InfoDict | None:
        """The next info, waiting for one; None once closed and empty."""
        while not self._items:
            if self._closed:
                return None
            self._changed.clear()
            await self._changed.wait()
        return self._items.popleft()


class AnalysisComplete(Exception):  # noqa: N818 -- python-chess's name, kept for familiarity
    """Raised by :meth:`AnalysisResult.get` once the analysis has ended and every info was read."""


class AnalysisResult(abc.ABC):
    """A running analysis: iterate over it (``async for info in analysis``) for the ``info`` dicts
    as they come; :attr:`info` and :attr:`multipv` hold the latest; :meth:`stop` ends it and
    :meth:`wait` returns the engine's move.  As an ``async with`` block it is stopped at the end.

    Each engine subclasses it over its own search (the USI client's, the built-in engine's).
    """

    def __init__(self, queue: InfoQueue) -> None:
        self._queue = queue
        self._finished = False

    @property
    @abc.abstractmethod
    def info(self) -> InfoDict:
        """Everything the engine said about its best line so far."""

    @property
    @abc.abstractmethod
    def multipv(self) -> list[InfoDict]:
        """The latest info of each principal variation, best first."""

    @abc.abstractmethod
    def stop(self) -> None:
        """Ask the engine to stop (it then answers, which :meth:`wait` returns)."""

    @abc.abstractmethod
    async def wait(self) -> PlayResult:
        """Wait until the analysis ends and return the engine's best move."""

    @abc.abstractmethod
    def _failure(self) -> BaseException | None:
        """The error that ended the analysis, if it ended with one."""

    def _checked(self, info: InfoDict) -> InfoDict:
        """*info* as handed to the reader (an engine may check it first)."""
        return info

    async def get(self) -> InfoDict:
        """The next info dict.

        :raises AnalysisComplete: once the analysis is over and all infos were read.
        :raises EngineError: if the engine failed during the analysis.
        """
        if self._finished and self._queue.empty():
            raise AnalysisComplete
        item = await self._queue.get()
        if item is None:
            self._finished = True
            failure = self._failure()
            if failure is not None:
                raise failure
            raise AnalysisComplete
        return self._checked(item)

    def empty(self) -> bool:
        """Whether no info is waiting to be read."""
        return self._queue.empty()

    def __aiter__(self) -> AsyncIterator[InfoDict]:
        return self

    async def __anext__(self) -> InfoDict:
        try:
            return await self.get()
        except AnalysisComplete:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> AnalysisResult:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.stop()
        with contextlib.suppress(EngineError):
            await self.wait()


__all__ = ["MAX_QUEUED_INFOS", "AnalysisComplete", "AnalysisResult", "InfoQueue"]
