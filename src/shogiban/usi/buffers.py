"""Bounded lines from what an engine writes: at most :data:`MAX_LINE_BYTES` each (the ``info``
dicts waiting for an analysis's reader are bounded by :class:`shogiban.engines.InfoQueue`).

An engine may write anything, as fast as it likes, for as long as it likes: nothing it sends may
grow the client without bound.
"""

from __future__ import annotations

MAX_LINE_BYTES = 64 * 1024
"""The longest line read from an engine; longer ones are dropped (a pv of 1,000 moves is 5 KB)."""


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


__all__ = ["MAX_LINE_BYTES", "LineBuffer"]
