"""The asyncio USI client: drive any USI engine (gpsusi, Fairy-Stockfish, YaneuraOu, ours).

Modelled on python-chess's ``chess.engine``, in the engines vocabulary (:mod:`shogiban.engines`;
:class:`UsiProtocol` is an :class:`~shogiban.engines.Engine`, as the built-in engine is)::

    transport, engine = await popen_usi(["/usr/games/gpsusi"])
    await engine.configure({"Thread": 1, "BookDepth": 0})
    result = await engine.play(board, Limit(byoyomi=1))
    await engine.quit()

Every wait has a deadline, whatever the limit (a search without a time limit gets
:data:`DEFAULT_SEARCH_TIMEOUT`).  An engine that dies raises :class:`EngineTerminatedError` at
once; one that stops answering is sent ``stop``, then killed, and the call raises
:class:`EngineTimeoutError`.  Either way the process is killed and reaped and the caller is never left
hanging.

The engine runs in a process group of its own, registered with :func:`shogiban.children.reaper`:
stopping it stops whatever it forked, and if this process dies, however it dies, the reaper ends
the group.  What the engine writes is bounded (:mod:`shogiban.usi.buffers`): overlong lines are
dropped, only an analysis keeps ``info`` lines for its reader (a bounded number, then the latest
of each line), and ``play`` keeps only the merged latest info.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import subprocess
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, overload

from shogiban.board import Board
from shogiban.children import kill_group, new_group_options, reaper
from shogiban.engines.analysis import AnalysisResult, InfoQueue
from shogiban.engines.interface import mate_seconds
from shogiban.engines.limit import (
    DEFAULT_ISREADY_TIMEOUT,
    DEFAULT_SEARCH_TIMEOUT,
    DEFAULT_TIMEOUT,
    MAX_MULTIPV,
    STOP_GRACE,
    Limit,
    Seconds,
    to_ms,
)
from shogiban.engines.options import ConfigValue, Options
from shogiban.engines.results import InfoDict, MateResult, PlayResult
from shogiban.errors import EngineError, EngineTerminatedError, EngineTimeoutError
from shogiban.move import Move
from shogiban.usi.buffers import LineBuffer
from shogiban.usi.wire import (
    BestMove,
    legal_prefix,
    parse_bestmove,
    parse_checkmate,
    parse_info,
    parse_option,
    position_command,
    split_command,
)

if TYPE_CHECKING:
    from shogiban.engines.interface import Engine

LOGGER = logging.getLogger("shogiban.usi")
T = TypeVar("T")

MAX_WARNINGS = 5
"""Unreadable ``info`` lines logged per search, bad ``option`` lines per handshake (an engine could
send millions)."""
MAX_OPTIONS = 1024
"""Options kept from the handshake (engines declare a few dozen)."""
STDERR_LINE_CHARS = 300
"""Characters kept of each stderr line quoted in error messages."""
OUTPUT_CLOSED_GRACE = 0.5
"""Seconds an engine that closed its output has to exit before it is taken for hung and killed."""


def decode_line(data: bytes) -> str:
    """Decode one line of engine output: UTF-8, else CP932 (Japanese Windows engines), else
    UTF-8 with replacement characters.  A trailing ``\\r`` is dropped."""
    data = data.rstrip(b"\r")
    for encoding in ("utf-8", "cp932"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("utf-8", errors="replace")


class _Search:
    """One ``go``: collects ``info`` lines and waits for ``bestmove`` (or ``checkmate``)."""

    def __init__(self, protocol: UsiProtocol, board: Board, kind: str, key: str) -> None:
        self.protocol = protocol
        self.board = board
        self.kind = kind
        """``go``, ``ponder``, ``analysis`` or ``mate``."""
        self.key = key
        """The ``position`` command of the searched position."""
        self.done: asyncio.Future[tuple[str, str]] = protocol.loop.create_future()
        self.info = InfoDict()
        self.multipv: dict[int, InfoDict] = {}
        self.queue: InfoQueue | None = InfoQueue() if kind == "analysis" else None
        """Infos for an analysis's reader; a play search keeps only the merged latest ones."""
        self.stop_sent = False
        self.watchdog: asyncio.Task[None] | None = None
        self.warnings = 0

    def warn(self, message: str, *args: object) -> None:
        """Log a problem with the engine's output, at most :data:`MAX_WARNINGS` times per search."""
        self.warnings += 1
        if self.warnings <= MAX_WARNINGS:
            LOGGER.warning("%s: " + message, self.protocol.name, *args)
            if self.warnings == MAX_WARNINGS:
                LOGGER.warning("%s: further problems in this search are not logged", self.protocol.name)

    def line(self, command: str, args: str) -> None:
        if self.done.done():
            return
        if command == "info":
            try:
                # The pv is checked when it is read (checked()): most lines are superseded unread.
                info = parse_info(args, self.board, strict=False, check_pv=False)
            except EngineError as error:
                self.warn("ignoring info line %r: %s", args[:200], error)
                return
            rank = info.get("multipv", 1)
            if not 1 <= rank <= MAX_MULTIPV:
                self.warn("ignoring info multipv %d (tracking 1..%d)", rank, MAX_MULTIPV)
                return
            merged = self.multipv.setdefault(rank, InfoDict())
            merged.update(info)
            if rank == 1:
                self.info.update(info)
            if self.queue is not None:
                self.queue.put(info)
        elif command == "bestmove" or (command == "checkmate" and self.kind == "mate"):
            self.done.set_result((command, args))
            if self.queue is not None:
                self.queue.close()

    def checked(self, info: InfoDict) -> InfoDict:
        """*info* with its pv cut before the first move that is illegal in the searched position."""
        pv = info.get("pv")
        if not pv:
            return info
        legal, illegal = legal_prefix(self.board, pv)
        if illegal is None:
            return info
        self.warn("pv cut short before the illegal move %r", illegal.usi())
        copy = info.copy()
        copy["pv"] = legal
        return copy

    def fail(self, error: EngineError) -> None:
        if not self.done.done():
            self.done.set_exception(error)
            self.done.exception()  # marked as retrieved: callers that stopped waiting must not warn
        if self.queue is not None:
            self.queue.close()

    def send_stop(self) -> None:
        if not self.stop_sent and not self.done.done():
            self.stop_sent = True
            self.protocol.send_line("stop")

    def start_watchdog(self, deadline: float | None) -> None:
        """Past *deadline* seconds send ``stop``; if the engine still says nothing, kill it."""
        if self.watchdog is not None:
            self.watchdog.cancel()
        if deadline is not None:
            self.watchdog = asyncio.ensure_future(self._watch(deadline))

    async def _watch(self, deadline: float) -> None:
        await asyncio.wait([self.done], timeout=deadline)
        if self.done.done():
            return
        with contextlib.suppress(EngineError):
            self.send_stop()
        await asyncio.wait([self.done], timeout=self.protocol.timeout)
        if self.done.done():
            return
        await self.protocol.kill(
            EngineTimeoutError(
                f"{self.protocol.name}: no answer to {self.kind!r} search within "
                f"{deadline + self.protocol.timeout:.1f} s (after stop); engine killed"
            )
        )

    async def result(self) -> tuple[str, str]:
        try:
            return await self.done
        finally:
            if self.watchdog is not None:
                self.watchdog.cancel()


class UsiProtocol(asyncio.SubprocessProtocol):
    """An asyncio protocol speaking USI to an engine process (create it with :func:`popen_usi`).

    Commands run one at a time.  While the engine ponders (after ``play(..., ponder=True)``) the
    next command ends the ponder search first: ``play`` on the predicted position sends
    ``ponderhit``, anything else sends ``stop`` and discards the answer.
    """

    def __init__(
        self, *, timeout: float = DEFAULT_TIMEOUT, isready_timeout: float = DEFAULT_ISREADY_TIMEOUT,
        search_timeout: float = DEFAULT_SEARCH_TIMEOUT,
    ) -> None:
        self.loop = asyncio.get_running_loop()
        self.timeout = timeout
        """Seconds for a command to be answered (and grace after a search's own time)."""
        self.isready_timeout = isready_timeout
        """Seconds for ``usi`` and ``isready`` to be answered."""
        self.search_timeout = search_timeout
        """Seconds a search without a time limit may take before ``stop`` (see :data:`DEFAULT_SEARCH_TIMEOUT`)."""
        self.stop_grace = STOP_GRACE
        """Seconds past a search's own time before ``stop`` (see :data:`STOP_GRACE`)."""
        self.transport: asyncio.SubprocessTransport | None = None
        self.name = "engine"
        """Short name for messages: ``id name`` once known, else the program."""
        self.id: dict[str, str] = {}
        """``id name`` and ``id author``."""
        self.options = Options()
        """The options the engine declared."""
        self.config: dict[str, str | None] = {}
        """The option values sent with ``setoption``, by option name."""
        self.returncode: asyncio.Future[int] = self.loop.create_future()
        self._stdout = LineBuffer()
        self._stderr = LineBuffer()
        self._group: int | None = None
        """The engine's process group, once registered with the reaper."""
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=10)
        """The last lines the engine wrote to stderr (quoted in error messages)."""
        self._lock = asyncio.Lock()
        self._listener: Callable[[str, str], None] | None = None
        self._waiters: set[asyncio.Future[Any]] = set()
        self._search: _Search | None = None
        self._error: EngineError | None = None
        self._ready = False
        self._new_game = True
        self._multipv_value = 1
        self._output_closed: asyncio.TimerHandle | None = None

    # -- asyncio.SubprocessProtocol ---------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        self.transport = transport
        LOGGER.debug("%s: process %s started", self.name, transport.get_pid())

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        buffer = self._stdout if fd == 1 else self._stderr
        dropped = buffer.dropped
        for raw in buffer.feed(data):
            line = decode_line(raw)
            if fd == 1:
                try:
                    self._line_received(line)
                except (EngineError, ValueError) as error:  # one bad line must not lose the rest
                    LOGGER.warning("%s: ignoring the line %r: %s", self.name, line[:200], error)
            else:
                LOGGER.debug("%s stderr: %s", self.name, line)
                self.stderr_tail.append(line[:STDERR_LINE_CHARS])
        if buffer.dropped > dropped and buffer.dropped <= MAX_WARNINGS:
            LOGGER.warning("%s: dropped a line longer than %d bytes", self.name, buffer.limit)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        # An engine that closed its output cannot answer any more, even if it still runs.  The
        # output usually closes because the process died: wait a moment to report its exit code.
        # A timer rather than a task: a loop closed meanwhile drops it without a warning.
        if fd == 1 and not self.returncode.done():
            loop = asyncio.get_running_loop()
            self._output_closed = loop.call_later(OUTPUT_CLOSED_GRACE, self._on_output_closed)

    def _on_output_closed(self) -> None:
        if self.returncode.done():
            return
        self._fail(EngineTerminatedError(f"{self.name}: engine closed its output{self._stderr_note()}"))
        self._kill_process()

    def process_exited(self) -> None:
        assert self.transport is not None
        code = self.transport.get_returncode()
        LOGGER.debug("%s: process exited with code %s", self.name, code)
        self._fail(EngineTerminatedError(f"{self.name}: engine process died (exit code {code}){self._stderr_note()}"))
        self._end_group()  # whatever the engine forked is of no use without it
        if self._output_closed is not None:
            self._output_closed.cancel()
        if not self.returncode.done():
            self.returncode.set_result(code if code is not None else -1)

    # -- plumbing ---------------------------------------------------------------------------------

    def _stderr_note(self) -> str:
        return f"; its stderr ends: {' | '.join(self.stderr_tail)!r}" if self.stderr_tail else ""

    def _line_received(self, line: str) -> None:
        LOGGER.debug("%s >> %s", self.name, line)
        command, args = split_command(line)
        if not command:
            return
        if self._search is not None:
            self._search.line(command, args)
        if self._listener is not None:
            self._listener(command, args)

    def _fail(self, error: EngineError) -> None:
        if self._error is None:
            self._error = error
        for waiter in list(self._waiters):
            if not waiter.done():
                waiter.set_exception(self._dead())
                waiter.exception()
        self._waiters.clear()
        if self._search is not None:
            self._search.fail(self._dead())

    def _dead(self) -> EngineError:
        """A fresh copy of the error that ended the engine (raising one instance twice chains tracebacks)."""
        assert self._error is not None
        return type(self._error)(str(self._error))

    @property
    def alive(self) -> bool:
        """Whether the engine can still take commands."""
        return self._error is None

    def send_line(self, line: str) -> None:
        """Write one line to the engine.

        :raises EngineTerminatedError: if the engine is gone.
        """
        if self._error is not None:
            raise self._dead()
        assert self.transport is not None
        pipe = self.transport.get_pipe_transport(0)
        if pipe is None or pipe.is_closing():
            raise EngineTerminatedError(f"{self.name}: engine input is closed")
        LOGGER.debug("%s << %s", self.name, line)
        pipe.write((line + "\n").encode("utf-8"))  # type: ignore[attr-defined]

    async def _expect(
        self, command: str, reply: str, timeout: float, on_line: Callable[[str, str], None] | None = None
    ) -> None:
        """Send *command* and wait up to *timeout* s for the line *reply*; kill the engine if late."""
        if self._error is not None:
            raise self._dead()
        answered: asyncio.Future[None] = self.loop.create_future()
        self._waiters.add(answered)

        def listener(word: str, args: str) -> None:
            if on_line is not None:
                on_line(word, args)
            if word == reply and not answered.done():
                answered.set_result(None)

        self._listener = listener
        try:
            self.send_line(command)
            try:
                await asyncio.wait_for(asyncio.shield(answered), timeout)
            except TimeoutError:
                message = f"{self.name}: no {reply!r} within {timeout:g} s after {command!r}; engine killed"
                await self.kill(EngineTimeoutError(message))
                raise self._dead() from None
        finally:
            self._listener = None
            self._waiters.discard(answered)

    def _close_stdin(self) -> None:
        """Close the engine's input: end of input makes some engines exit."""
        pipe = self.transport.get_pipe_transport(0) if self.transport is not None else None
        if pipe is not None and not pipe.is_closing():
            pipe.close()

    def _kill_process(self) -> None:
        """Kill the engine and everything it forked (its process group)."""
        if self._group is not None:
            kill_group(self._group)
        if self.transport is not None and self.transport.get_returncode() is None:
            with contextlib.suppress(ProcessLookupError):
                self.transport.kill()

    def watch_group(self, group: int) -> None:
        """Own the engine's process group *group* (its leader's pid): watch it with the reaper, so
        that it dies with this process, and end it at once if the engine already died."""
        self._group = group
        try:
            reaper().register(group)
        except OSError as error:  # no helper process (out of processes?): the engine still works
            LOGGER.warning("%s: cannot watch the engine's process group: %s", self.name, error)
        if self.transport is not None and self.transport.get_returncode() is not None:
            self._end_group()  # died at once: nothing of it may be left behind

    def release_search(self, search: object) -> None:
        """Forget *search* if it is still the running one (its result was read)."""
        if self._search is search:
            self._search = None

    def _end_group(self) -> None:
        """Kill what is left of the engine's process group and stop watching it."""
        group, self._group = self._group, None
        if group is not None:
            kill_group(group)  # safe after the leader exited: a group's id is not reused while it has members
            with contextlib.suppress(OSError):  # only a helper to restart: nothing is left to watch
                reaper().unregister(group)

    async def kill(self, error: EngineError | None = None) -> None:
        """Kill the engine process (and whatever it forked) and reap it; then pending and later
        calls raise *error*."""
        if self._error is None:
            self._error = error or EngineTerminatedError(f"{self.name}: engine was killed")
        self._kill_process()
        await self._reap(self.timeout)
        self._fail(self._error)

    async def _reap(self, timeout: float) -> None:
        await asyncio.wait([self.returncode], timeout=timeout)
        if self.returncode.done():
            self._end_group()
        if self.transport is not None:
            self.transport.close()

    # -- commands -------------------------------------------------------------------------------

    async def initialize(self) -> None:
        """Send ``usi`` and read ``id`` and ``option`` lines up to ``usiok``.

        :raises EngineError: if ``usiok`` does not come within :attr:`isready_timeout`.
        """

        problems = 0

        def on_line(word: str, args: str) -> None:
            nonlocal problems
            if word == "id":
                key, _, value = args.partition(" ")
                if key in ("name", "author"):  # USI has no other id: others are not kept
                    self.id[key] = value.strip()
                if key == "name" and value.strip():
                    self.name = value.strip()
            elif word == "option":
                try:
                    option = parse_option(args)
                    if len(self.options) >= MAX_OPTIONS and option.name not in self.options:
                        raise EngineError(f"more than {MAX_OPTIONS} options declared; ignoring {option.name[:80]!r}")
                    self.options.add(option)
                except EngineError as error:
                    problems += 1
                    if problems <= MAX_WARNINGS:
                        LOGGER.warning("%s: %s", self.name, error)

        async with self._lock:
            await self._expect("usi", "usiok", self.isready_timeout, on_line)

    async def ping(self) -> None:
        """Send ``isready`` and wait for ``readyok`` (up to :attr:`isready_timeout`)."""
        async with self._lock:
            await self._end_search()
            await self._isready()

    async def _isready(self) -> None:
        await self._expect("isready", "readyok", self.isready_timeout)
        self._ready = True

    async def configure(self, options: Mapping[str, ConfigValue]) -> None:
        """Set engine options (``setoption``), checked against the options the engine declared.

        ``USI_Hash``, ``USI_Ponder`` and other ``USI_`` options may be set even when the engine
        did not declare them, as GUIs do.

        :raises EngineError: for an unknown option or a value that does not fit.
        """
        lines = [self._setoption_line(name, value) for name, value in options.items()]
        async with self._lock:
            await self._end_search()
            for line in lines:
                self.send_line(line)
            for name, value in options.items():
                self.config[self._option_name(name)] = None if value is None else str(value)
                if name.lower() in ("multipv", "usi_multipv") and value is not None:
                    self._multipv_value = int(value)
            self._ready = False

    def _option_name(self, name: str) -> str:
        return self.options[name].name if name in self.options else name

    def _setoption_line(self, name: str, value: str | int | bool | None) -> str:
        if name in self.options:
            option = self.options[name]
            text = option.value_text(value)
            return f"setoption name {option.name}" + ("" if text is None else f" value {text}")
        if not name.startswith("USI_"):
            known = ", ".join(self.options) or "none"
            raise EngineError(f"{self.name}: unknown option {name!r} (the engine declares: {known})")
        if value is None:
            return f"setoption name {name}"
        if isinstance(value, bool):
            value = "true" if value else "false"
        return f"setoption name {name} value {value}"

    async def new_game(self) -> None:
        """Make the next search start a new game (``isready`` and ``usinewgame`` are sent before it)."""
        async with self._lock:
            await self._end_search()
            self._new_game = True
            self._ready = False

    async def game_over(self, result: str) -> None:
        """Tell the engine the game ended: *result* is ``win``, ``lose`` or ``draw`` for the engine.

        :raises ValueError: for another result.
        """
        if result not in ("win", "lose", "draw"):
            raise ValueError(f"invalid game result: {result!r} (expected win, lose or draw)")
        async with self._lock:
            await self._end_search()
            self.send_line(f"gameover {result}")
            self._new_game = True
            self._ready = False  # GUIs sync with isready before each game

    async def _prepare(self, multipv: int | None) -> None:
        """End any search, set MultiPV, sync with ``isready`` and start a game if needed."""
        await self._end_search()
        self._set_multipv(multipv)
        if not self._ready:
            await self._isready()
        if self._new_game:
            self.send_line("usinewgame")
            self._new_game = False

    def _set_multipv(self, multipv: int | None) -> None:
        wanted = multipv or 1
        name = next((n for n in ("MultiPV", "USI_MultiPV") if n in self.options), None)
        if name is None:
            return
        if multipv is None:
            configured = self.config.get(self.options[name].name)
            wanted = int(configured) if configured else int(self.options[name].default or 1)
        if wanted != self._multipv_value:
            self.send_line(self._setoption_line(name, wanted))
            self._multipv_value = wanted
            self._ready = False

    async def _end_search(self) -> None:
        """Stop a running ponder or analysis search and wait for (and discard) its bestmove."""
        search = self._search
        if search is None:
            return
        if not search.done.done():
            search.send_stop()
            search.start_watchdog(0.0)
        try:
            await search.result()
        finally:
            self._search = None

    def _start(self, board: Board, kind: str, go: str) -> _Search:
        key = position_command(board)
        search = _Search(self, board.copy(stack=False), kind, key)
        self._search = search
        self.send_line(key)
        self.send_line(go)
        return search

    def _deadline(self, board: Board, limit: Limit, timeout: float | None) -> float | None:
        """Seconds until ``stop``: *timeout*, else the limit's time plus :attr:`stop_grace`, else
        :attr:`search_timeout`; None only for an infinite search (its caller stops it)."""
        if timeout is not None:
            return timeout
        return limit.deadline(board.turn, grace=self.stop_grace, default=self.search_timeout)

    async def play(
        self, board: Board, limit: Limit, *, ponder: bool = False, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> PlayResult:
        """Search *board* under *limit* and return the engine's move.

        With ``ponder=True`` the engine goes on thinking on the expected reply; the next ``play``
        sends ``ponderhit`` if the game went that way, else ``stop``.  *searchmoves* restricts the
        root moves (``go ... searchmoves``).

        :param timeout: seconds to wait for ``bestmove`` (default: the limit's time plus
            :data:`STOP_GRACE`, or :attr:`search_timeout` for a limit without a time: depth,
            nodes or none).  After it the engine gets ``stop``, then :attr:`timeout` more seconds
            to answer, then it is killed.
        :raises EngineMoveError: if the move is unreadable or illegal (the engine stays usable).
        :raises EngineError: if the engine hangs (it is killed).
        :raises EngineTerminatedError: if the engine dies.
        :raises ValueError: for an infinite limit (use :meth:`analysis`).
        """
        if limit.infinite:
            raise ValueError(f"invalid limit for play: {limit!r} (infinite; use analysis() and stop it)")
        async with self._lock:
            search = self._search
            key = position_command(board)
            if search is not None and search.kind == "ponder" and search.key == key:
                if not search.done.done():
                    self.send_line("ponderhit")
                else:
                    LOGGER.warning("%s: sent bestmove while pondering (before ponderhit)", self.name)
                search.kind = "go"
            else:
                await self._prepare(None)
                search = self._start(board, "go", _go_command(limit, searchmoves))
            search.start_watchdog(self._deadline(board, limit, timeout))
            try:
                _, args = await search.result()
            finally:
                self._search = None
            best = parse_bestmove(args, search.board)
            result = _play_result(best, search.checked(search.info))
            if ponder and result.move is not None and result.ponder is not None:
                after = board.copy()
                after.push(result.move)
                after.push(result.ponder)
                self._start(after, "ponder", "go ponder " + " ".join(limit.go_args()))
            return result

    async def analysis(
        self, board: Board, limit: Limit | None = None, *, multipv: int | None = None,
        searchmoves: Iterable[Move] | None = None, timeout: float | None = None,
    ) -> UsiAnalysis:
        """Start analysing *board* (``go infinite`` without a limit) and return the running analysis.

        Iterate over it for the ``info`` dicts as they come; :meth:`UsiAnalysis.stop` ends it
        (the engine then has :attr:`timeout` seconds to answer before it is killed).  A new
        command also ends it.  A limited analysis is stopped like :meth:`play`'s search; an
        infinite one runs until its caller stops it, unless *timeout* is given.  *multipv* sets
        the engine's ``MultiPV`` (default: the configured value, else 1).
        """
        limit = limit or Limit(infinite=True)
        async with self._lock:
            await self._prepare(multipv)
            search = self._start(board, "analysis", _go_command(limit, searchmoves))
            search.start_watchdog(self._deadline(board, limit, timeout))
            return UsiAnalysis(self, search)

    @overload
    async def analyse(
        self, board: Board, limit: Limit, *, multipv: None = None, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> InfoDict: ...

    @overload
    async def analyse(
        self, board: Board, limit: Limit, *, multipv: int, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> list[InfoDict]: ...

    async def analyse(
        self, board: Board, limit: Limit, *, multipv: int | None = None, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> InfoDict | list[InfoDict]:
        """Analyse *board* until *limit*: the last info of the best line, or with *multipv* the
        last info of each principal variation (that many, best first).

        :raises ValueError: for a limit that never ends (use :meth:`analysis`).
        """
        if not limit.is_bounded():
            raise ValueError(f"invalid limit for analyse: {limit!r} (it would never end; use analysis())")
        analysis = await self.analysis(board, limit, multipv=multipv, searchmoves=searchmoves, timeout=timeout)
        await analysis.wait()
        return analysis.info if multipv is None else analysis.multipv

    async def mate(
        self, board: Board, limit: Limit | Seconds | None = None, *, timeout: float | None = None
    ) -> MateResult:
        """Ask for a mate (``go mate <ms>`` for a :class:`Limit` with a ``time`` or a number of
        seconds, else ``go mate infinite``).

        An engine that answers ``bestmove`` (Fairy-Stockfish) reports ``'notimplemented'``.

        :raises EngineError: if the mating line is illegal or does not mate, or the engine hangs.
        """
        seconds = mate_seconds(limit)
        async with self._lock:
            await self._prepare(None)
            argument = "infinite" if seconds is None else str(to_ms(seconds))
            search = self._start(board, "mate", f"go mate {argument}")
            if timeout is None:
                timeout = self.search_timeout if seconds is None else seconds + self.stop_grace
            search.start_watchdog(timeout)
            try:
                command, args = await search.result()
            finally:
                self._search = None
            if command == "bestmove":
                return MateResult("notimplemented")
            status, moves = parse_checkmate(args, search.board)
            if status not in ("mate", "nomate", "timeout", "notimplemented"):
                raise EngineError(f"{self.name}: unreadable checkmate answer: {args!r}")
            return MateResult(status, moves)  # type: ignore[arg-type]

    async def stop_pondering(self) -> None:
        """End a ponder search, if any (its answer is discarded)."""
        async with self._lock:
            await self._end_search()

    async def quit(self) -> None:
        """End any search, send ``quit`` and wait for the process to exit (killing it if it does not)."""
        async with self._lock:
            if self._error is None:
                with contextlib.suppress(EngineError):
                    await self._end_search()
                with contextlib.suppress(EngineError):
                    self.send_line("quit")
                    self._close_stdin()
                if self._error is None:  # later calls should say "has quit", not "died"
                    self._error = EngineTerminatedError(f"{self.name}: engine has quit")
                await asyncio.wait([self.returncode], timeout=self.timeout)
            await self.kill(EngineTerminatedError(f"{self.name}: engine has quit"))


def _play_result(best: BestMove, info: InfoDict) -> PlayResult:
    return PlayResult(best.move, best.ponder, info, best.resigned, best.declared_win)


def _go_command(limit: Limit, searchmoves: Iterable[Move] | None) -> str:
    """The ``go`` command for *limit* (``searchmoves`` last: it takes the words after it)."""
    words = ["go", *limit.go_args()]
    moves = [move.usi() for move in searchmoves or ()]
    if moves:
        words += ["searchmoves", *moves]
    return " ".join(words)


class UsiAnalysis(AnalysisResult):
    """A running analysis of a USI engine: an async iterator over ``info`` dicts, with the latest
    kept in :attr:`info` and :attr:`multipv` (see :class:`~shogiban.engines.AnalysisResult`)."""

    def __init__(self, protocol: UsiProtocol, search: _Search) -> None:
        assert search.queue is not None  # an analysis search always has one
        super().__init__(search.queue)
        self._protocol = protocol
        self._search = search

    @property
    def info(self) -> InfoDict:
        """Everything the engine said about its best line so far."""
        return self._search.checked(self._search.info)

    @property
    def multipv(self) -> list[InfoDict]:
        """The latest info of each principal variation, best first."""
        search = self._search
        return [search.checked(search.multipv[k]) for k in sorted(search.multipv)] or [search.checked(search.info)]

    def stop(self) -> None:
        """Ask the engine to stop (it answers ``bestmove``, which :meth:`wait` returns)."""
        with contextlib.suppress(EngineError):
            self._search.send_stop()
            self._search.start_watchdog(0.0)

    async def wait(self) -> PlayResult:
        """Wait until the analysis ends and return the engine's best move."""
        try:
            _, args = await self._search.result()
        finally:
            self._protocol.release_search(self._search)
        return _play_result(parse_bestmove(args, self._search.board), self._search.checked(self._search.info))

    def _failure(self) -> BaseException | None:
        done = self._search.done
        return done.exception() if done.done() and not done.cancelled() else None

    def _checked(self, info: InfoDict) -> InfoDict:
        return self._search.checked(info)


def _command_list(command: str | Sequence[str]) -> list[str]:
    if isinstance(command, str):
        import shlex

        return shlex.split(command)
    return list(command)


async def popen_usi(
    command: str | Sequence[str],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    isready_timeout: float = DEFAULT_ISREADY_TIMEOUT,
    search_timeout: float = DEFAULT_SEARCH_TIMEOUT,
    **popen_args: Any,
) -> tuple[asyncio.SubprocessTransport, UsiProtocol]:
    """Start a USI engine and do the ``usi`` handshake.

    The engine runs in a process group of its own (so Ctrl-C in a terminal does not reach it, and
    ending it ends whatever it forked), watched by :func:`shogiban.children.reaper` so that it
    dies with this process.

    :param command: the program and its arguments (a string is split like a shell would).
    :param timeout: seconds allowed for each answer (see :class:`UsiProtocol`).
    :param isready_timeout: seconds allowed for ``usi`` and ``isready``.
    :param search_timeout: seconds a search without a time limit may take (see :class:`UsiProtocol`).
    :raises OSError: if the program cannot be started.
    :raises EngineError: if it does not complete the handshake in time (it is killed).
    """
    loop = asyncio.get_running_loop()
    args = _command_list(command)
    popen_args.setdefault("stderr", subprocess.PIPE)
    popen_args.update(new_group_options())
    transport, protocol = await loop.subprocess_exec(
        lambda: UsiProtocol(timeout=timeout, isready_timeout=isready_timeout, search_timeout=search_timeout),
        *args, **popen_args,
    )
    if os.name == "posix":
        protocol.watch_group(transport.get_pid())
    protocol.name = os.path.basename(args[0]) if args else "engine"
    try:
        await protocol.initialize()
    except BaseException:
        await protocol.kill()
        raise
    return transport, protocol


if TYPE_CHECKING:

    def _conforms(engine: UsiProtocol) -> Engine:
        return engine  # mypy checks UsiProtocol against the Engine protocol here
