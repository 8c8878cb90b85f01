"""Reading the user's lines with a deadline, from a terminal or a pipe.

A background thread reads the stream line by line into a queue, so the game can wait for a move
with a timeout (the clock) whether stdin is a terminal or scripted input.

>>> reader = ScriptedReader(["7g7f", "resign"])
>>> reader.read_line(None), reader.read_line(1.0), reader.read_line(1.0)
('7g7f', 'resign', None)
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from typing import Protocol, TextIO


class InputTimeoutError(Exception):
    """No line arrived before the deadline."""


class LineReader(Protocol):
    """Where the user's lines come from."""

    def read_line(self, timeout: float | None) -> str | None:
        """The next line without its newline, or None at the end of the input.

        :raises InputTimeoutError: if *timeout* seconds pass first.
        """


class StreamReader:
    """Lines of a text stream (stdin), read by a daemon thread so waits can time out."""

    def __init__(self, stream: TextIO) -> None:
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._pump, args=(stream,), name="shogiban-input", daemon=True)
        self._thread.start()

    def _pump(self, stream: TextIO) -> None:
        try:
            for line in stream:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            # The stream was closed under us: treat it as the end of the input.
            pass
        finally:
            self._lines.put(None)

    def read_line(self, timeout: float | None) -> str | None:
        """See :meth:`LineReader.read_line`."""
        try:
            line = self._lines.get(timeout=None if timeout is None else max(0.0, timeout))
        except queue.Empty:
            raise InputTimeoutError from None
        if line is None:
            self._lines.put(None)  # stay at the end for later calls
        return line


class ScriptedReader:
    """Lines given in advance, for tests; ``(line, seconds)`` pairs first advance a fake clock by
    *seconds* (through *advance*) as if the user took that long to type the line."""

    def __init__(
        self, lines: Iterable[str | tuple[str, float]], *, advance: Callable[[float], None] | None = None
    ) -> None:
        self._lines = list(lines)
        self._advance = advance
        self.echo: list[str] = []
        """The lines handed out so far."""

    def read_line(self, timeout: float | None) -> str | None:
        """See :meth:`LineReader.read_line`."""
        if not self._lines:
            return None
        item = self._lines[0]
        line, delay = (item, 0.0) if isinstance(item, str) else item
        if delay and self._advance is not None:
            if timeout is not None and delay > timeout:
                self._advance(timeout)
                self._lines[0] = (line, delay - timeout)
                raise InputTimeoutError
            self._advance(delay)
        self._lines.pop(0)
        self.echo.append(line)
        return line
