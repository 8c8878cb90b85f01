"""A blocking USI client: :class:`SimpleEngine` runs the asyncio client in a background thread.

::

    with SimpleEngine.popen_usi("/usr/games/fairy-stockfish") as engine:
        engine.configure({"Threads": 1, "Skill Level": 0})
        result = engine.play(board, Limit(byoyomi=1))
        board.push(result.move)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar

from shogiban.board import Board
from shogiban.errors import EngineError
from shogiban.usi.model import InfoDict, Limit, MateResult, Options, PlayResult, Seconds
from shogiban.usi.protocol import (
    DEFAULT_ISREADY_TIMEOUT,
    DEFAULT_SEARCH_TIMEOUT,
    DEFAULT_TIMEOUT,
    AnalysisComplete,
    AnalysisResult,
    UsiProtocol,
    popen_usi,
)

T = TypeVar("T")

#: Seconds between two checks, while a call waits, that the client's event-loop thread still runs.
LOOP_CHECK_SECONDS = 1.0


class SimpleEngine:
    """A USI engine behind blocking calls; every method may be called from any thread.

    Create it with :meth:`popen_usi`; close it with :meth:`quit` or a ``with`` block.  Errors are
    those of :class:`~shogiban.usi.protocol.UsiProtocol`: :class:`EngineError` and
    :class:`EngineTerminatedError`.  No call waits for ever: every wait of the protocol has a
    deadline, and a call notices if the background thread running it has died.
    """

    def __init__(
        self, transport: asyncio.SubprocessTransport, protocol: UsiProtocol, loop: asyncio.AbstractEventLoop,
        thread: threading.Thread,
    ) -> None:
        self.transport = transport
        self.protocol = protocol
        self._loop = loop
        self._thread = thread
        self._closed = False

    @classmethod
    def popen_usi(
        cls,
        command: str | Sequence[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        isready_timeout: float = DEFAULT_ISREADY_TIMEOUT,
        search_timeout: float = DEFAULT_SEARCH_TIMEOUT,
        **popen_args: Any,
    ) -> SimpleEngine:
        """Start the engine *command* and do the ``usi`` handshake (see :func:`popen_usi`).

        :param search_timeout: seconds a search without a time limit (depth, nodes, none) may
            take before the engine is stopped, then killed.
        :raises OSError: if the program cannot be started.
        :raises EngineError: if the handshake fails or times out (the process is killed).
        """
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="shogiban-usi-client", daemon=True)
        thread.start()
        coroutine = popen_usi(
            command, timeout=timeout, isready_timeout=isready_timeout, search_timeout=search_timeout, **popen_args
        )
        try:
            transport, protocol = _wait(asyncio.run_coroutine_threadsafe(coroutine, loop), thread)
        except BaseException:
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()
            raise
        return cls(transport, protocol, loop, thread)

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._closed:
            coroutine.close()
            raise EngineError(f"{self.protocol.name}: the engine was closed")
        if not self._thread.is_alive():
            coroutine.close()
            raise EngineError(f"{self.protocol.name}: the client's event-loop thread has stopped")
        return _wait(asyncio.run_coroutine_threadsafe(coroutine, self._loop), self._thread)

    @property
    def id(self) -> dict[str, str]:
        """``id name`` and ``id author``."""
        return self.protocol.id

    @property
    def name(self) -> str:
        """The engine's name (``id name``)."""
        return self.protocol.name

    @property
    def options(self) -> Options:
        """The options the engine declared."""
        return self.protocol.options

    @property
    def alive(self) -> bool:
        """Whether the engine still takes commands."""
        return self.protocol.alive and not self._closed

    def configure(self, options: Mapping[str, str | int | bool | None]) -> None:
        """Set options (see :meth:`UsiProtocol.configure`)."""
        self._run(self.protocol.configure(options))

    def ping(self) -> None:
        """``isready`` / ``readyok``."""
        self._run(self.protocol.ping())

    def new_game(self) -> None:
        """Send ``usinewgame`` before the next search."""
        self._run(self.protocol.new_game())

    def game_over(self, result: str) -> None:
        """Send ``gameover win|lose|draw`` (from the engine's point of view)."""
        self._run(self.protocol.game_over(result))

    def play(self, board: Board, limit: Limit, *, ponder: bool = False, timeout: float | None = None) -> PlayResult:
        """The engine's move in *board* (see :meth:`UsiProtocol.play`)."""
        return self._run(self.protocol.play(board, limit, ponder=ponder, timeout=timeout))

    def analyse(
        self, board: Board, limit: Limit, *, multipv: int | None = None, timeout: float | None = None
    ) -> list[InfoDict]:
        """The final info of each principal variation, best first (see :meth:`UsiProtocol.analyse`)."""
        return self._run(self.protocol.analyse(board, limit, multipv=multipv, timeout=timeout))

    def analysis(
        self, board: Board, limit: Limit | None = None, *, multipv: int | None = None, timeout: float | None = None
    ) -> SimpleAnalysisResult:
        """Start an analysis and iterate over its info dicts (see :meth:`UsiProtocol.analysis`)."""
        inner = self._run(self.protocol.analysis(board, limit, multipv=multipv, timeout=timeout))
        return SimpleAnalysisResult(self, inner)

    def mate(self, board: Board, time: Seconds | None = None, *, timeout: float | None = None) -> MateResult:
        """``go mate`` (see :meth:`UsiProtocol.mate`)."""
        return self._run(self.protocol.mate(board, time, timeout=timeout))

    def stop_pondering(self) -> None:
        """End a ponder search, if any."""
        self._run(self.protocol.stop_pondering())

    def quit(self) -> None:
        """Quit the engine (killing it if it does not exit) and stop the background thread."""
        if self._closed:
            return
        try:
            self._run(self.protocol.quit())
        finally:
            self._closed = True
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()

    close = quit

    def kill(self) -> None:
        """Kill the engine at once."""
        if not self._closed:
            self._run(self.protocol.kill())

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.protocol.name!r} pid={self.transport.get_pid()}>"


def _wait(future: concurrent.futures.Future[T], thread: threading.Thread) -> T:
    """The result of *future*, run by the event loop in *thread*; raises :class:`EngineError` if
    that thread dies first (the future would then never complete)."""
    while True:
        try:
            return future.result(timeout=LOOP_CHECK_SECONDS)
        except concurrent.futures.TimeoutError:
            if not thread.is_alive():
                future.cancel()
                raise EngineError("the USI client's event-loop thread stopped during a call") from None


class SimpleAnalysisResult:
    """A running analysis, blocking: iterate for info dicts; ``stop()``; ``wait()`` for the move."""

    def __init__(self, engine: SimpleEngine, inner: AnalysisResult) -> None:
        self._engine = engine
        self.inner = inner

    @property
    def info(self) -> InfoDict:
        """Everything the engine said about its best line so far."""
        return self.inner.info

    @property
    def multipv(self) -> list[InfoDict]:
        """The latest info of each principal variation, best first."""
        return self.inner.multipv

    def stop(self) -> None:
        """Ask the engine to stop."""
        self._engine._loop.call_soon_threadsafe(self.inner.stop)

    def wait(self) -> PlayResult:
        """Wait for the end of the analysis and return the best move."""
        return self._engine._run(self.inner.wait())

    def get(self) -> InfoDict:
        """The next info dict; raises :class:`AnalysisComplete` at the end."""
        return self._engine._run(self.inner.get())

    def __iter__(self) -> Iterator[InfoDict]:
        return self

    def __next__(self) -> InfoDict:
        try:
            return self.get()
        except AnalysisComplete:
            raise StopIteration from None

    def __enter__(self) -> SimpleAnalysisResult:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
        try:
            self.wait()
        except (EngineError, concurrent.futures.CancelledError):
            if exc_type is None:
                raise
