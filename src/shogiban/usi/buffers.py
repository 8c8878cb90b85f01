"""Bounded buffers for what an engine writes: lines of at most :data:`MAX_LINE_BYTES`, and at
most :data:`MAX_QUEUED_INFOS` ``info`` dicts waiting for an analysis's reader.

An engine may write anything, as fast as it likes, for as long as it likes: nothing it sends may
grow the client without bound.
"""

from __future__ import annotations

import asyncio
import collections

from shogiban.usi.model import InfoDict

MAX_LINE_BYTES = 64 * 1024
"""The longest line read from an engine; longer ones are dropped (a pv of 1,000 moves is 5 KB)."""
MAX_QUEUED_INFOS = 1024
"""``info`` dicts an analysis keeps for a reader that lags behind; past this only the latest of
each principal variation is kept."""


class LineBuffer:
    r"""Splits a byte stream into lines of at most *limit* bytes, in time linear in the input.

    A longer line is dropped whole (counted in :attr:`dropped`) and never held in memory.

    >>> lines = LineBuffer(limit=4)
    >>> lines.feed(b"ab\nabcdefgh"), lines.feed(b"ij\ncd\n"), lines.dropped
    ([b'ab'], [b'cd'], 1)
    """

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self.limit = limit
        self.dropped = 0
        """Lines dropped for being too long."""
        self._partial = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes]:
        """The lines completed by *data* (without their ``\\n``)."""
        lines: list[bytes] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            if self._skipping:
                self._skipping = False
            elif self._partial:
                if len(self._partial) + end - start <= self.limit:
                    lines.append(bytes(self._partial) + data[start:end])
                else:
                    self.dropped += 1
                self._partial.clear()
            elif end - start <= self.limit:
                lines.append(data[start:end])
            else:
                self.dropped += 1
            start = end + 1
        if start < len(data) and not self._skipping:
            if len(self._partial) + len(data) - start > self.limit:
                self._partial.clear()
                self._skipping = True
                self.dropped += 1
            else:
                self._partial += data[start:]
        return lines


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
        self._wake()

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
        self._wake()

    def _wake(self) -> None:
        self._changed.set()

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


__all__ = ["MAX_LINE_BYTES", "MAX_QUEUED_INFOS", "InfoQueue", "LineBuffer"]
