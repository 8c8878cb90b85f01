"""A blocking engine: :class:`SimpleEngine` runs any asyncio engine (a USI engine, or the built-in
one in this process) in a background thread.

::

    with SimpleEngine.popen_usi("/usr/games/fairy-stockfish") as engine:
        engine.configure({"Threads": 1, "Skill Level": 0})
        result = engine.play(board, Limit(byoyomi=1))
        board.push(result.move)

    with SimpleEngine.builtin(level=8) as engine:
        lines = engine.analyse(board, Limit(depth=4), multipv=3)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar, overload

from shogiban.board import Board
from shogiban.engines.analysis import AnalysisComplete, AnalysisResult
from shogiban.engines.interface import Engine
from shogiban.engines.limit import DEFAULT_ISREADY_TIMEOUT, DEFAULT_SEARCH_TIMEOUT, DEFAULT_TIMEOUT, Limit, Seconds
from shogiban.engines.options import ConfigValue, Options
from shogiban.engines.results import InfoDict, MateResult, PlayResult
from shogiban.errors import EngineError
from shogiban.move import Move

T = TypeVar("T")

#: Seconds between two checks, while a call waits, that the client's event-loop thread still runs.
LOOP_CHECK_SECONDS = 1.0

Starter = Callable[[], Coroutine[Any, Any, "tuple[Engine, asyncio.SubprocessTransport | None]"]]
"""Makes the engine, in the client's event loop."""


class SimpleEngine:
    """An engine behind blocking calls; every method may be called from any thread.

    Create it with :meth:`popen_usi` (a USI engine program) or :meth:`builtin` (the built-in
    engine in this process); close it with :meth:`quit` or a ``with`` block.  Errors are the
    engine's: :class:`EngineError` and its subclasses.  No call waits for ever: every wait of the
    engine has a deadline, and a call notices if the background thread running it has died.
    """

    def __init__(
        self, protocol: Engine, loop: asyncio.AbstractEventLoop, thread: threading.Thread,
        transport: asyncio.SubprocessTransport | None = None,
    ) -> None:
        self.protocol = protocol
        """The asyncio engine (a :class:`~shogiban.usi.UsiProtocol` or a :class:`~shogiban.engines.BuiltinEngine`)."""
        self.transport = transport
        """The engine process's transport (None for the built-in engine)."""
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
        """Start the USI engine *command* and do the ``usi`` handshake (see :func:`shogiban.usi.popen_usi`).

        :param search_timeout: seconds a search without a time limit (depth, nodes, none) may
            take before the engine is stopped, then killed.
        :raises OSError: if the program cannot be started.
        :raises EngineError: if the handshake fails or times out (the process is killed).
        """
        from shogiban.usi.protocol import popen_usi

        async def start() -> tuple[Engine, asyncio.SubprocessTransport | None]:
            transport, protocol = await popen_usi(
                command, timeout=timeout, isready_timeout=isready_timeout, search_timeout=search_timeout,
                **popen_args,
            )
            return protocol, transport

        return cls._started(start, "shogiban-usi-client")

    @classmethod
    def builtin(
        cls,
        level: int = 8,
        *,
        hash_mb: int = 64,
        seed: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        search_timeout: float = DEFAULT_SEARCH_TIMEOUT,
    ) -> SimpleEngine:
        """The built-in engine in this process (see :class:`~shogiban.engines.BuiltinEngine`).

        :raises ValueError: for a level not 1..8 or a bad hash size.
        """
        from shogiban.engines.builtin import BuiltinEngine

        async def start() -> tuple[Engine, asyncio.SubprocessTransport | None]:
            engine = BuiltinEngine(level, hash_mb=hash_mb, seed=seed, timeout=timeout, search_timeout=search_timeout)
            return engine, None

        return cls._started(start, "shogiban-builtin-client")

    @classmethod
    def _started(cls, start: Starter, thread_name: str) -> SimpleEngine:
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name=thread_name, daemon=True)
        thread.start()
        try:
            protocol, transport = _wait(asyncio.run_coroutine_threadsafe(start(), loop), thread)
        except BaseException:
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()
            raise
        return cls(protocol, loop, thread, transport)

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

    def configure(self, options: Mapping[str, ConfigValue]) -> None:
        """Set options (checked against :attr:`options`)."""
        self._run(self.protocol.configure(options))

    def ping(self) -> None:
        """Wait until the engine is ready (``isready`` / ``readyok``)."""
        self._run(self.protocol.ping())

    def new_game(self) -> None:
        """The next search starts a new game (``usinewgame``)."""
        self._run(self.protocol.new_game())

    def game_over(self, result: str) -> None:
        """The game ended: ``win``, ``lose`` or ``draw`` from the engine's point of view."""
        self._run(self.protocol.game_over(result))

    def play(
        self, board: Board, limit: Limit, *, ponder: bool = False, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> PlayResult:
        """The engine's move in *board* (see :meth:`shogiban.engines.Engine.play`)."""
        return self._run(self.protocol.play(board, limit, ponder=ponder, searchmoves=searchmoves, timeout=timeout))

    @overload
    def analyse(
        self, board: Board, limit: Limit, *, multipv: None = None, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> InfoDict: ...

    @overload
    def analyse(
        self, board: Board, limit: Limit, *, multipv: int, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> list[InfoDict]: ...

    def analyse(
        self, board: Board, limit: Limit, *, multipv: int | None = None, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> InfoDict | list[InfoDict]:
        """The info of the best line, or with *multipv* the final info of each line, best first
        (see :meth:`shogiban.engines.Engine.analyse`)."""
        if multipv is None:
            return self._run(self.protocol.analyse(board, limit, searchmoves=searchmoves, timeout=timeout))
        return self._run(
            self.protocol.analyse(board, limit, multipv=multipv, searchmoves=searchmoves, timeout=timeout)
        )

    def analysis(
        self, board: Board, limit: Limit | None = None, *, multipv: int | None = None,
        searchmoves: Iterable[Move] | None = None, timeout: float | None = None,
    ) -> SimpleAnalysisResult:
        """Start an analysis and iterate over its info dicts (see :meth:`shogiban.engines.Engine.analysis`)."""
        inner = self._run(
            self.protocol.analysis(board, limit, multipv=multipv, searchmoves=searchmoves, timeout=timeout)
        )
        return SimpleAnalysisResult(inner, run=self._run, call_soon=self._loop.call_soon_threadsafe)

    def mate(self, board: Board, limit: Limit | Seconds | None = None, *, timeout: float | None = None) -> MateResult:
        """A mate search (see :meth:`shogiban.engines.Engine.mate`)."""
        return self._run(self.protocol.mate(board, limit, timeout=timeout))

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
        where = "in-process" if self.transport is None else f"pid={self.transport.get_pid()}"
        return f"<SimpleEngine {self.protocol.name!r} {where}>"


def _wait(future: concurrent.futures.Future[T], thread: threading.Thread) -> T:
    """The result of *future*, run by the event loop in *thread*; raises :class:`EngineError` if
    that thread dies first (the future would then never complete)."""
    while True:
        try:
            return future.result(timeout=LOOP_CHECK_SECONDS)
        except concurrent.futures.TimeoutError:
            if not thread.is_alive():
                future.cancel()
                raise EngineError("the engine client's event-loop thread stopped during a call") from None


class SimpleAnalysisResult:
    """A running analysis, blocking: iterate for info dicts; ``stop()``; ``wait()`` for the move."""

    def __init__(
        self,
        inner: AnalysisResult,
        *,
        run: Callable[[Coroutine[Any, Any, Any]], Any],
        call_soon: Callable[[Callable[[], object]], object],
    ) -> None:
        self.inner = inner
        # The blocking client's own ways into its event-loop thread.
        self._run = run
        self._call_soon = call_soon

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
        self._call_soon(self.inner.stop)

    def wait(self) -> PlayResult:
        """Wait for the end of the analysis and return the best move."""
        result: PlayResult = self._run(self.inner.wait())
        return result

    def get(self) -> InfoDict:
        """The next info dict; raises :class:`AnalysisComplete` at the end."""
        info: InfoDict = self._run(self.inner.get())
        return info

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


__all__ = ["SimpleAnalysisResult", "SimpleEngine"]
